/* Fuzzes crypto/siglist.c: any bytes as an EFI_SIGNATURE_LIST chain, checked with and
 * without unknown types, walked (checked or not) and searched. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"

#include <ember/crypto/siglist.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct siglist_iter it;
	struct siglist_entry entry;
	size_t count = 0;

	(void)siglist_check(data, size, false);
	/* The walk must stay in bounds even on a chain nobody checked. */
	siglist_begin(&it, data, size);
	while (siglist_next(&it, &entry) == EFI_SUCCESS)
		count++;
	if (siglist_check(data, size, true) != EFI_SUCCESS)
		return 0;
	for (int type = SIGLIST_X509; type < SIGLIST_UNKNOWN; type++)
		(void)siglist_contains(data, size, (enum siglist_type)type, data,
				       size < 32 ? size : 32);
	(void)count;
	return 0;
}
