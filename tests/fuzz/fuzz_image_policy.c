/* Fuzzes security/image_policy.c: the input is db's size and dbx's size (two little-endian
 * 16-bit numbers), then db, dbx and the image; the policy must refuse or allow without
 * reading past any of them, and the db entry it reports for an allowed image must lie
 * inside db. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"

#include <stdlib.h>
#include <ember/core/image_policy.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image_databases dbs;
	struct image_authority authority;
	const uint8_t *db;
	size_t db_size, dbx_size;

	if (size < 4)
		return 0;
	db_size = data[0] | (size_t)data[1] << 8;
	dbx_size = data[2] | (size_t)data[3] << 8;
	data += 4, size -= 4;
	if (db_size + dbx_size > size)
		return 0;
	db = data;
	dbs = (struct image_databases){data, db_size, data + db_size, dbx_size};
	data += db_size + dbx_size, size -= db_size + dbx_size;
	if (image_policy_check_authority(data, size, &dbs, &authority) == IMAGE_ALLOWED &&
	    (authority.entry < db || authority.size > db_size ||
	     authority.entry + authority.size > db + db_size))
		abort();
	return 0;
}
