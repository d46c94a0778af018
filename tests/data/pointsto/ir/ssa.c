// Built at -O1: phis, selects and pointer arithmetic through integers in SSA form.
#include <stdint.h>
int a, b, c;
int *o1, *o2, *o3;

__attribute__((noinline)) int *pick(int k) {
  int *p = &a;
  for (int i = 0; i < k; ++i) p = (i & 1) ? &b : p;   // a phi of a and a select of b
  return p;
}

int main(int argc, char **argv) {
  (void)argv;
  o1 = pick(argc);                                     //= @o1(obj): @a(obj) @b(obj)
  o2 = argc > 2 ? &c : &a;                             //= @o2(obj): @a(obj) @c(obj)
  uintptr_t u = (uintptr_t)&c;
  o3 = (int *)((u + 4) & ~(uintptr_t)3);               //= @o3(obj): @c(obj)
  return 0;
}
