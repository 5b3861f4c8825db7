/* Fuzzes the terminal input decoder (lib/term_keys.c, pure logic). Input: bytes as they
 * would arrive, where 0xff n lets n ms pass (0xff 0xff is a literal 0xff). Checks every
 * key is one well-formed key and that the decoder never makes up keys: at most one key
 * per byte, nothing left after the end. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include <ember/lib/term_keys.h>

#define MS 1000000ULL

static size_t keys_total;

static void check_keys(const struct term_key *keys, size_t n)
{
	if (n > TERM_KEYS_OUT_MAX)
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct term_key *k = &keys[i];
		if ((k->scan == SCAN_NULL) == (k->unicode == 0) || k->scan > SCAN_ESC)
			abort();
		if (k->shift_state && !(k->shift_state & EFI_SHIFT_STATE_VALID))
			abort();
	}
	keys_total += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct term_keys d;
	struct term_key keys[TERM_KEYS_OUT_MAX];
	UINT64 now = 1000 * MS;
	size_t bytes = 0;

	term_keys_init(&d);
	keys_total = 0;
	for (size_t i = 0; i < size; i++) {
		if (data[i] == 0xff && i + 1 < size && data[i + 1] != 0xff) {
			now += data[++i] * MS;
			check_keys(keys, term_keys_flush(&d, now, false, keys));
			continue;
		}
		if (data[i] == 0xff && i + 1 < size)
			i++;
		bytes++;
		check_keys(keys, term_keys_feed(&d, data[i], now, keys));
		if (d.len > TERM_KEYS_SEQ_MAX)
			abort();
	}
	check_keys(keys, term_keys_flush(&d, now, true, keys));
	if (term_keys_pending(&d) || keys_total > bytes)
		abort();
	return 0;
}
