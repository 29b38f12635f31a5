/* ## and # in depth (C99 6.10.3.2-3), GCC's ", ## __VA_ARGS__" */
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define CAT3(a, b, c) a ## b ## c
int CAT(var, 1) = CAT(1, 2) + CAT(0x, 1F) + CAT(1e, 5) + CAT(., 5);
int XCAT(XCAT(a, b), XCAT(c, d));
int CAT3(x, , y), CAT3(, , z);
#define OP(a, b) a ## b
int o = 1 OP(+, =) 2, p OP(<, <) OP(-, >) q OP(&, &) r OP(|, |) s;
#define STR(x) #x
#define XSTR(x) STR(x)
const char *s1 = STR( a  +   b ), *s2 = STR("quote\" and \\"), *s3 = STR('"'),
	*s4 = STR(  ), *s5 = XSTR(CAT(x, y)), *s6 = STR(a
b), *s7 = STR(L"wide" 'c' /* comment */ end), *s8 = XSTR(__LINE__ > 0);
#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)
LOG("a"); LOG("b", 1); LOG("c", 1, 2); LOG("d",);
#define NAMED(args...) f(args)
NAMED(); NAMED(1, 2);
#define V(a, ...) [a] #__VA_ARGS__ [__VA_ARGS__]
V(1) V(1,) V(1, 2) V(1, (2, 3), 4);
#define EMPTYARG(x) <x>
EMPTYARG() EMPTYARG( ) EMPTYARG((,))
#define H(x) x ## __LINE__
int H(line);
#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)
LOG("a"); LOG("d",); LOG("e", );
#define L2(...) f(0, ## __VA_ARGS__)
L2() L2(1)
#define E
LOG("x", E)
#define DOUBLE_PASTE(a, b) a ## ## b
int DOUBLE_PASTE(x, y);
