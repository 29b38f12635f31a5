/* X-macros and generated code, the kind of macro use real sources have */
#define COLORS(X) X(red, 1) X(green, 2) X(blue, 4)
#define AS_ENUM(name, value) COLOR_##name = value,
#define AS_NAME(name, value) [COLOR_##name] = #name,
#define AS_CASE(name, value) case COLOR_##name: return value;
enum color { COLORS(AS_ENUM) COLOR_COUNT };
static const char *names[] = { COLORS(AS_NAME) };
int value(enum color c) { switch (c) { COLORS(AS_CASE) default: return 0; } }
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CLAMP(x, lo, hi) MIN(MAX(x, lo), hi)
float c = CLAMP(CLAMP(x, 0.0f, 1.0f), MIN(a, b), MAX(a, b));
#define REPEAT2(x) x x
#define REPEAT4(x) REPEAT2(x) REPEAT2(x)
#define REPEAT16(x) REPEAT4(REPEAT4(x))
int r[] = { REPEAT16(1 +) 0 };
#define KERNEL(name, T) kernel void name(T a<>, T b<>, out T c<>) { c = a + b; }
KERNEL(add_float, float)
KERNEL(add_float4, float4)
#define SWAP(T, a, b) do { T tmp_ = (a); (a) = (b); (b) = tmp_; } while (0)
void f(int *p, int *q) { SWAP(int, *p, *q); }
#define FIELD(type, name) type name;
#define STRUCT(name, fields) struct name { fields(FIELD) };
#define POINT_FIELDS(F) F(float, x) F(float, y) F(float, z)
STRUCT(point, POINT_FIELDS)
#define COUNT_ARGS(...) COUNT_ARGS_(__VA_ARGS__, 5, 4, 3, 2, 1, 0)
#define COUNT_ARGS_(a, b, c, d, e, n, ...) n
int n1 = COUNT_ARGS(a), n3 = COUNT_ARGS(a, b, c), n5 = COUNT_ARGS(a, b, c, d, e);
#undef MIN
#define MIN(a, b) min(a, b)
float m = MIN(1, 2);
#ifdef MAX
int max_defined = MAX(1, 2);
#endif
#undef MAX
#ifndef MAX
int max_undefined;
#endif
