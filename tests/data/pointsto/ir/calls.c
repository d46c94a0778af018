// Direct calls (actuals to formals, returns), indirect calls through pointers, tables and callbacks.
// Context-insensitive: every call of first() shares its formals, so first returns a and c.
int a, b, c, d;
int *r1, *r2, *r3, *r4, *r5;

static int *first(int *p, int *q) { (void)q; return p; }
static int *second(int *p, int *q) { (void)p; return q; }
static int *(*ops[2])(int *, int *) = {first, second};
static void apply(void (*f)(int *), int *arg) { f(arg); }
static void keep(int *p) { r5 = p; }
static void never(int *p) { r4 = p; }   // its address is taken but no pointer reaches a call of it
void (*unused)(int *) = never;

int main(int argc, char **argv) {
  (void)argv;
  r1 = first(&a, &b);                    //= @r1(obj): @a(obj) @c(obj)
  int *(*fp)(int *, int *) = argc > 1 ? first : second;
  r2 = fp(&c, &d);                       //= @r2(obj): @a(obj) @c(obj) @d(obj)
  r3 = ops[1](&a, &d);                   //= @r3(obj): @a(obj) @c(obj) @d(obj)
                                         //= second:%q: @d(obj)
  apply(keep, &b);                       //= @r5(obj): @b(obj)
  return 0;                              //= @r4(obj):
}
