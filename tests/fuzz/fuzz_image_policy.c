/* Fuzzes security/image_policy.c: the input is db's size and dbx's size (two little-endian
 * 16-bit numbers), then db, dbx and the image; the policy must refuse or allow without
 * reading past any of them. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"

#include <ember/core/image_policy.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image_databases dbs;
	size_t db_size, dbx_size;

	if (size < 4)
		return 0;
	db_size = data[0] | (size_t)data[1] << 8;
	dbx_size = data[2] | (size_t)data[3] << 8;
	data += 4, size -= 4;
	if (db_size + dbx_size > size)
		return 0;
	dbs = (struct image_databases){data, db_size, data + db_size, dbx_size};
	data += db_size + dbx_size, size -= db_size + dbx_size;
	(void)image_policy_check(data, size, &dbs);
	return 0;
}
