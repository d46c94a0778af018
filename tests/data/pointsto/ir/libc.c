// Allocation sites and the libc functions with a pointer effect. Flow-insensitive: dst holds what
// either copy put there, so h3 and h4 read the same set.
#include <stdlib.h>
#include <string.h>
int x, y;
int **h1, **h2, *h3, *h4;
char *s1, *e1, *d1;
char buf[8];

int main(void) {
  int **p = malloc(sizeof *p);
  *p = &x;
  h1 = p;                                 //= @h1(obj): main:%call(heap)
  int **q = realloc(p, 2 * sizeof *q);   // a new object holding what p's held
  h2 = q;                                 //= @h2(obj): main:%call1(heap)
                                          //= main:%call1(heap): @x(obj)
  int *src[1] = {&y};
  int *dst[1];
  memcpy(dst, src, sizeof src);
  h3 = dst[0];                            //= @h3(obj): @y(obj) main:%call(heap)
  memmove(dst, &p, sizeof p);             // dst now also holds p's heap object (as an int*)
  h4 = dst[0];                            //= @h4(obj): @y(obj) main:%call(heap)
  s1 = strcpy(buf, "ab");                 //= @s1(obj): @buf(obj)
  strtol(buf, &e1, 10);                   //= @e1(obj): @buf(obj)
  void *m = 0;
  posix_memalign(&m, 16, 8);
  d1 = m;                                 //= @d1(obj): main:%call7(heap)
  return **h1 + **h2;
}
