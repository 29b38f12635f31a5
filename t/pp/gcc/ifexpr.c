/* #if arithmetic (C99 6.10.1): each test prints yes or no */
#define T(name) name
#if 1 + 2 * 3 == 7
T(prec_yes)
#else
T(prec_no)
#endif
#if -1 > 0u
T(unsigned_promotion_yes)
#endif
#if 18446744073709551615u == -1
T(uintmax_wrap_yes)
#endif
#if 0x7fffffffffffffff > 0 && -0x7fffffffffffffff - 1 < 0
T(intmax_range_yes)
#endif
#if (0 ? -1 : 0u) > 0 || (1 ? -1 : 0u) > 0
T(ternary_unsigned_yes)
#endif
#if '\n' == 10 && '\x41' == 'A' && '\101' == 65 && '\0' == 0 && 'ab' == 24930
T(charconst_yes)
#endif
#if '\xff' < 0 && L'\xff' > 0
T(char_signed_yes)
#endif
#if 1 << 63 < 0 && (1u << 63) > 0 && -8 >> 1 == -4 && 8u >> 1 == 4
T(shift_yes)
#endif
#if !defined(NOPE) && !defined NOPE && defined T && (defined(T) + 1) == 2
T(defined_yes)
#endif
#define ZERO 0
#define ONE ZERO + 1
#if ONE == 1 && ZERO == 0 && undefined_identifier == 0 && (undefined_fn + 1) == 1
T(replace_yes)
#endif
#if 0 && (1 / 0)
#elif 1 || (1 % 0)
T(short_circuit_yes)
#endif
#if (3 & 6) == 2 && (3 | 6) == 7 && (3 ^ 6) == 5 && ~5 == -6 && !0 == 1 && !5 == 0
T(bitwise_yes)
#endif
#if 7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1 && 7u % 2 == 1
T(division_yes)
#endif
#if 1 <= 1 && 1 >= 1 && 1 != 2 && 2 > 1 && 1 < 2 && (0 || 2) == 1 && (3 && 4) == 1
T(comparison_yes)
#endif
#if 10L == 10 && 10UL == 10u && 10ll == 10 && 10ULL == 10 && 0x10 == 16 && 010 == 8
T(suffix_yes)
#endif
#if (1, 0)
T(comma_no)
#else
T(comma_yes)
#endif
#if 0
#elif 0
#else
T(else_yes)
#endif
#define F(x) ((x) * 2)
#if F(F(3)) == 12
T(function_macro_yes)
#endif
#define D defined(ZERO)
#if D
T(defined_from_macro_yes)
#endif
