/* Fuzzes the parsers of what SCSI devices answer (drivers/scsi/scsi_data.c). The first byte
 * picks the parser (sense, INQUIRY, REPORT LUNS, READ CAPACITY (10) and (16), the mode
 * header), the rest is the answer, in a buffer of exactly its length. What each parser
 * accepts must hold: LUNs unique and in range, block sizes usable, strings terminated. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../drivers/scsi/scsi_data.h"

#define MAX_LUNS 64

static void check(int ok)
{
	if (!ok)
		abort();
}

static void luns(const UINT8 *data, size_t size, UINT16 max_lun)
{
	UINT16 found[MAX_LUNS];
	UINTN count = 99;

	if (!scsi_data_report_luns(data, size, max_lun, found, MAX_LUNS, &count)) {
		check(count == 0);
		return;
	}
	check(count <= MAX_LUNS && count <= size / 8);
	for (UINTN i = 0; i < count; i++) {
		check(found[i] <= max_lun);
		for (UINTN j = 0; j < i; j++)
			check(found[i] != found[j]);
	}
}

static void capacity(const UINT8 *data, size_t size, bool sixteen)
{
	struct scsi_capacity cap;
	bool ok = sixteen ? scsi_data_capacity_16(data, size, &cap)
			  : scsi_data_capacity_10(data, size, &cap);

	if (!ok)
		return;
	check(cap.block_size >= 512 && cap.block_size <= 65536 &&
	      !(cap.block_size & (cap.block_size - 1)));
	check(cap.blocks_per_physical >= 1 && cap.lowest_aligned <= cap.last_lba);
}

static void inquiry(const UINT8 *data, size_t size)
{
	struct scsi_inquiry inq;

	if (!scsi_data_inquiry(data, size, &inq))
		return;
	check(inq.type <= 0x1f && inq.qualifier <= 7);
	check(strlen(inq.vendor) <= 8 && strlen(inq.product) <= 16 && strlen(inq.revision) <= 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
	struct scsi_sense sense;
	UINT8 *data;

	if (!size)
		return 0;
	size--;
	data = malloc(size ? size : 1);
	memcpy(data, input + 1, size);
	switch (input[0] % 6) {
	case 0:
		if (scsi_data_sense(data, size, &sense))
			check(sense.key <= 0xf);
		break;
	case 1:
		inquiry(data, size);
		break;
	case 2:
		luns(data, size, (UINT16)(input[0] * 61));
		break;
	case 3:
	case 4:
		capacity(data, size, input[0] % 6 == 4);
		break;
	default:
		scsi_data_write_protected(data, size);
	}
	free(data);
	return 0;
}
