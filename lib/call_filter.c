/* The call filter (include/ember/lib/call_filter.h). The bytes are scanned from the start:
 * an E8 at offset i (with its four bytes before the end) is a call whose rel32 at i + 1 is
 * converted, and the scan goes on at i + 5; any other byte is passed over. Encoding leaves
 * the E8 bytes as they are, so decoding finds the same ones. The reset stage decodes the
 * whole core's code at every boot, so the search for E8 bytes looks at 16 (or 8) at once. */
#include <ember/lib/call_filter.h>

#define CALL 0xe8
#define SPAN 0x1000000u /* converted values lie in [-SPAN, SPAN) */

/* Unaligned little-endian access (x86-64 and the hosts Ember builds on). */
struct unaligned32 {
	uint32_t value;
} __attribute__((packed, may_alias));

struct unaligned64 {
	uint64_t value;
} __attribute__((packed, may_alias));

#ifdef __SSE2__
#define STEP 16
typedef char bytes16 __attribute__((vector_size(16)));

struct unaligned128 {
	bytes16 value;
} __attribute__((packed, may_alias));

/* The STEP bytes at p: bit k set where byte k is an E8. */
static inline uint64_t calls_in(const uint8_t *p)
{
	const bytes16 call = {(char)CALL, (char)CALL, (char)CALL, (char)CALL,
			      (char)CALL, (char)CALL, (char)CALL, (char)CALL,
			      (char)CALL, (char)CALL, (char)CALL, (char)CALL,
			      (char)CALL, (char)CALL, (char)CALL, (char)CALL};

	return (uint64_t)__builtin_ia32_pmovmskb128(
	    (bytes16)(((const struct unaligned128 *)p)->value == call));
}

static inline unsigned first_call(uint64_t found)
{
	return (unsigned)__builtin_ctzll(found);
}
#else
#define STEP 8
/* The STEP bytes at p: each byte's high bit set where it is an E8 (the lowest flagged byte
 * always is one; those above it may not be). */
static inline uint64_t calls_in(const uint8_t *p)
{
	uint64_t x = ((const struct unaligned64 *)p)->value ^ 0xe8e8e8e8e8e8e8e8ull;

	return (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
}

static inline unsigned first_call(uint64_t found)
{
	return (unsigned)__builtin_ctzll(found) >> 3;
}
#endif

/* The call at code[at] whose operand ends at `next`: in [-SPAN, SPAN), moved by +-next
 * modulo 2^25 and brought back into [-SPAN, SPAN). */
static inline void convert(uint8_t *code, size_t at, int direction)
{
	struct unaligned32 *operand = (struct unaligned32 *)(code + at + 1);
	uint32_t value = operand->value;

	if (value + SPAN < 2 * SPAN) {
		value += (uint32_t)(direction * (int64_t)(at + 5));
		operand->value = ((value & (2 * SPAN - 1)) ^ SPAN) - SPAN;
	}
}

static void filter(uint8_t *code, size_t size, int direction)
{
	size_t i = 0;

	/* While a call found in the next STEP bytes has its operand before the end. */
	while (size >= STEP + 4 && i <= size - (STEP + 4)) {
		uint64_t found = calls_in(code + i);

		if (!found) {
			i += STEP;
			continue;
		}
		i += first_call(found);
		convert(code, i, direction);
		i += 5;
	}
	for (; i + 5 <= size; i++) {
		if (code[i] == CALL) {
			convert(code, i, direction);
			i += 4;
		}
	}
}

void call_filter_encode(uint8_t *code, size_t size)
{
	filter(code, size, 1);
}

void call_filter_decode(uint8_t *code, size_t size)
{
	filter(code, size, -1);
}
