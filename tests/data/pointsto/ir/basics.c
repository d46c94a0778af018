// Globals, initializers, allocas, fields (field-insensitive), arrays, casts and copies.
// Observed through globals, so the names do not depend on clang's numbering. Each "//=" comment,
// "node: objects", gives the exact points-to set of that node (tests/unit/test_pointsto_ir.cpp).
int x, y, z;
int *gp = &x;                 //= @gp(obj): @x(obj)
int *table[2] = {&y, &z};     //= @table(obj): @y(obj) @z(obj)
struct pair { int *a; int *b; };
struct pair gpair = {&x, 0};  //= @gpair(obj): @x(obj)
int *out1, *out2, *out3;
long out4;

int main(void) {
  struct pair local;
  local.b = &y;               // field-insensitive: local holds x (below) and y
  local.a = gp;
  out1 = local.b;             //= @out1(obj): @x(obj) @y(obj)
  int *arr[4];
  arr[2] = table[1];
  out2 = arr[0];              //= @out2(obj): @y(obj) @z(obj)
  char *c = (char *)&z;       // a cast is a copy
  out3 = (int *)(c + 1);      //= @out3(obj): @z(obj)
  out4 = (long)&x;            // a pointer kept in an integer global: @out4(obj) holds x
  return 0;                   //= @out4(obj): @x(obj)
}
