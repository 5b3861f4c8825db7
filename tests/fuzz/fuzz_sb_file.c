/* Fuzzes the setup screen's key-file checks (apps/setup/pure/sb_file.c): any bytes as a key
 * file, a signature-list chain walked, an entry read and removed, a certificate wrapped,
 * a PEM file decoded. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>
#include "../../apps/setup/pure/sb_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const EFI_GUID owner = {1, 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}};
	struct sb_entry e;
	UINT8 *copy = malloc(size ? size : 1), *esl = malloc(size + 64);
	UINT32 count;

	(void)sb_file_kind(data, size);
	(void)sb_auth_payload(data, size);
	count = sb_siglist_count(data, size);
	for (UINT32 i = 0; i <= count && i < 64; i++)
		if (sb_siglist_entry(data, size, i, &e) && e.size)
			(void)e.data[e.size - 1];
	memcpy(copy, data, size);
	if (count) {
		size_t left = sb_siglist_remove(copy, size, (UINT32)(size % count));
		if (left >= size || !sb_siglist_valid(copy, left))
			abort(); /* a removal leaves a smaller, valid chain */
	}
	if (sb_der_is_certificate(data, size) &&
	    sb_esl_from_der(data, size, &owner, esl, size + 64) &&
	    sb_siglist_count(esl, size + 44) != 1)
		abort();
	if (size) {
		size_t der = sb_pem_to_der(data, size, copy, size);
		if (der > size || (der && !sb_der_is_certificate(copy, der)))
			abort(); /* what it returns fits and is a certificate's shape */
	}
	free(copy);
	free(esl);
	return 0;
}
