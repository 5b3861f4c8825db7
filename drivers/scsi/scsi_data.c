/* Parsers of what SCSI devices answer and builders of the commands that ask (scsi_data.h). */
#include "scsi_data.h"
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define SENSE_FIXED_CURRENT 0x70
#define SENSE_FIXED_DEFERRED 0x71
#define SENSE_DESC_CURRENT 0x72
#define SENSE_DESC_DEFERRED 0x73
#define FIXED_ASC_AT 12
#define FIXED_LENGTH_AT 7
#define REPORT_LUNS_HEADER 8
#define LUN_BYTES 8
#define ADDRESS_PERIPHERAL 0
#define ADDRESS_FLAT 1

UINT32 scsi_be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

void scsi_put_be32(UINT8 *p, UINT32 value)
{
	p[0] = (UINT8)(value >> 24);
	p[1] = (UINT8)(value >> 16);
	p[2] = (UINT8)(value >> 8);
	p[3] = (UINT8)value;
}

static UINT64 be64(const UINT8 *p)
{
	return (UINT64)scsi_be32(p) << 32 | scsi_be32(p + 4);
}

static void put_be64(UINT8 *p, UINT64 value)
{
	scsi_put_be32(p, (UINT32)(value >> 32));
	scsi_put_be32(p + 4, (UINT32)value);
}

/* Fixed format: the ASC and ASCQ count only when the additional length covers them. */
static bool sense_fixed(const UINT8 *data, UINTN len, struct scsi_sense *sense)
{
	UINTN covered;

	if (len < 3)
		return false;
	sense->key = data[2] & 0x0f;
	if (len <= FIXED_LENGTH_AT)
		return true;
	covered = FIXED_LENGTH_AT + 1 + (UINTN)data[FIXED_LENGTH_AT];
	if (len > FIXED_ASC_AT + 1 && covered > FIXED_ASC_AT + 1) {
		sense->asc = data[FIXED_ASC_AT];
		sense->ascq = data[FIXED_ASC_AT + 1];
	}
	return true;
}

bool scsi_data_sense(const UINT8 *data, UINTN len, struct scsi_sense *sense)
{
	UINT8 code;

	*sense = (struct scsi_sense){0};
	if (!len)
		return false;
	code = data[0] & 0x7f;
	if (code == SENSE_FIXED_CURRENT || code == SENSE_FIXED_DEFERRED)
		return sense_fixed(data, len, sense);
	if (code != SENSE_DESC_CURRENT && code != SENSE_DESC_DEFERRED)
		return false;
	if (len < 4)
		return false;
	sense->key = data[1] & 0x0f;
	sense->asc = data[2];
	sense->ascq = data[3];
	return true;
}

/* A field of the identification: printable ASCII kept, the rest shown as '?', trailing
 * spaces dropped. */
static void ident(char *out, const UINT8 *in, UINTN len)
{
	UINTN end = 0;

	for (UINTN i = 0; i < len; i++) {
		out[i] = in[i] >= 0x20 && in[i] < 0x7f ? (char)in[i] : '?';
		if (out[i] != ' ')
			end = i + 1;
	}
	out[end] = 0;
}

bool scsi_data_inquiry(const UINT8 *data, UINTN len, struct scsi_inquiry *inq)
{
	mem_set(inq, 0, sizeof(*inq));
	if (len < 5)
		return false;
	inq->qualifier = data[0] >> 5;
	inq->type = data[0] & 0x1f;
	inq->removable = (data[1] & 0x80) != 0;
	/* The additional length says how much the device filled, whatever was asked. */
	len = MIN(len, (UINTN)data[4] + 5);
	if (len < SCSI_STANDARD_INQUIRY)
		return true;
	ident(inq->vendor, data + 8, 8);
	ident(inq->product, data + 16, 16);
	ident(inq->revision, data + 32, 4);
	return true;
}

/* One LUN of single-level addressing (SAM-5 4.7): peripheral with bus 0, or flat; the
 * other six bytes zero. false for anything else (hierarchical, well-known, extended). */
static bool decode_lun(const UINT8 *e, UINT16 *lun)
{
	UINT8 method = e[0] >> 6;

	for (UINTN i = 2; i < LUN_BYTES; i++)
		if (e[i])
			return false;
	if (method == ADDRESS_PERIPHERAL && (e[0] & 0x3f) == 0) {
		*lun = e[1];
		return true;
	}
	if (method == ADDRESS_FLAT) {
		*lun = (UINT16)((e[0] & 0x3f) << 8 | e[1]);
		return true;
	}
	return false;
}

static bool seen(const UINT16 *luns, UINTN count, UINT16 lun)
{
	for (UINTN i = 0; i < count; i++)
		if (luns[i] == lun)
			return true;
	return false;
}

bool scsi_data_report_luns(const UINT8 *data, UINTN len, UINT16 max_lun, UINT16 *luns, UINTN max,
			   UINTN *count)
{
	UINT32 list;
	UINTN entries;

	*count = 0;
	if (len < REPORT_LUNS_HEADER)
		return false;
	list = scsi_be32(data);
	if (list % LUN_BYTES)
		return false;
	/* A list longer than what arrived is cut to what arrived (the device had more). */
	entries = MIN((UINTN)list, len - REPORT_LUNS_HEADER) / LUN_BYTES;
	for (UINTN i = 0; i < entries && *count < max; i++) {
		UINT16 lun;

		if (!decode_lun(data + REPORT_LUNS_HEADER + i * LUN_BYTES, &lun) || lun > max_lun ||
		    seen(luns, *count, lun))
			continue;
		luns[(*count)++] = lun;
	}
	return true;
}

static bool block_size_ok(UINT32 size)
{
	return size >= 512 && size <= 65536 && !(size & (size - 1));
}

bool scsi_data_capacity_10(const UINT8 *data, UINTN len, struct scsi_capacity *cap)
{
	mem_set(cap, 0, sizeof(*cap));
	if (len < SCSI_CAPACITY_10_BYTES)
		return false;
	cap->last_lba = scsi_be32(data);
	cap->block_size = scsi_be32(data + 4);
	cap->blocks_per_physical = 1;
	return block_size_ok(cap->block_size);
}

bool scsi_data_capacity_16(const UINT8 *data, UINTN len, struct scsi_capacity *cap)
{
	UINT8 exponent;

	mem_set(cap, 0, sizeof(*cap));
	if (len < 12)
		return false;
	cap->last_lba = be64(data);
	cap->block_size = scsi_be32(data + 8);
	cap->blocks_per_physical = 1;
	if (!block_size_ok(cap->block_size) || cap->last_lba == ~0ULL)
		return false;
	if (len < 16)
		return true;
	exponent = data[13] & 0x0f;
	/* Larger ratios than 2^12 are no disk's: keep 1 rather than trust them. */
	cap->blocks_per_physical = exponent <= 12 ? 1u << exponent : 1;
	cap->lowest_aligned = (UINT64)(data[14] & 0x3f) << 8 | data[15];
	if (cap->lowest_aligned > cap->last_lba)
		cap->lowest_aligned = 0;
	return true;
}

bool scsi_data_write_protected(const UINT8 *data, UINTN len)
{
	return len >= 4 && (data[2] & 0x80) != 0;
}

UINT8 scsi_cdb_read_write(UINT8 cdb[16], bool write, UINT64 lba, UINT32 blocks)
{
	mem_set(cdb, 0, 16);
	if (lba + blocks <= 0x100000000ULL && blocks <= 0xffff) {
		cdb[0] = write ? SCSI_OP_WRITE_10 : SCSI_OP_READ_10;
		scsi_put_be32(cdb + 2, (UINT32)lba);
		cdb[7] = (UINT8)(blocks >> 8);
		cdb[8] = (UINT8)blocks;
		return 10;
	}
	cdb[0] = write ? SCSI_OP_WRITE_16 : SCSI_OP_READ_16;
	put_be64(cdb + 2, lba);
	scsi_put_be32(cdb + 10, blocks);
	return 16;
}
