/* Rescanning and the no-recursion rule (C99 6.10.3.4) */
#define f(a) a*g
#define g(a) f(a)
int r1 = f(2)(9);
#define AA BB
#define BB AA
int r2 = AA + BB;
#define self self + 1
int r3 = self;
#define EMPTY
#define LPAREN (
#define RPAREN )
#define F(x, y) x + y
#define ELLIP_FUNC(...) __VA_ARGS__
int r4 = ELLIP_FUNC(F, LPAREN, 'a', 'b', RPAREN);
#define obj(x) [x]
#define call obj
int r5 = call(1) call (2) call
(3) call;
#define id(x) x
int r6 = id(id)(4) id(id(id))(5);
#define paren (
int r7 = id paren 6);
#define nil(x) x
#define G(x) #x nil(x)
const char *r8 = G(nil(1));
#define APPLY(m, a) m(a)
#define TWICE(x) x x
int r9 = APPLY(TWICE, APPLY(id, 7));
int r10 = -EMPTY-1; int r11 = +EMPTY+1; int r12 = a EMPTY b;
#define PLUS +
int r13 = 1 PLUS+ 2; int r14 = x PLUS= y;
#define DOT .
float r15 = 1 DOT 5; int r16 = DOT DOT DOT;
