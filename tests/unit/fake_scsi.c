/* The SCSI target model of the tests (fake_scsi.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_scsi.h"

#define GOOD 0
#define CHECK_CONDITION 2

struct ctx {
	struct fake_scsi *s;
	struct fake_scsi_lu *lu; /* NULL: the LUN has no unit */
	UINT16 target, lun;
	const UINT8 *cdb;
	const UINT8 *out;
	UINT32 out_len;
	UINT8 *in;
	UINT32 in_room, in_len;
	UINT8 *sense;
	UINT32 *sense_len;
};

UINT8 fake_scsi_byte(UINT8 seed, UINT64 n)
{
	return (UINT8)(n * 7 + n / 512 + seed * 31 + 3);
}

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

static UINT64 be64(const UINT8 *p)
{
	return (UINT64)be32(p) << 32 | be32(p + 4);
}

static void put_be32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

#define KEPT_BYTES (64u << 20)

static void fill(struct fake_scsi_lu *lu, UINT8 seed)
{
	UINT64 bytes = lu->blocks * lu->block_size;

	free(lu->medium);
	lu->medium = NULL;
	lu->loaded = lu->blocks != 0;
	lu->seed = seed;
	if (!lu->loaded || bytes > KEPT_BYTES)
		return;
	lu->medium = malloc(bytes);
	for (UINT64 i = 0; i < bytes; i++)
		lu->medium[i] = fake_scsi_byte(seed, i);
}

struct fake_scsi_lu *fake_scsi_add(struct fake_scsi *s, UINT16 target, UINT16 lun, UINT8 type,
				   UINT32 block_size, UINT64 blocks)
{
	for (UINTN i = 0; i < FAKE_SCSI_LUNS; i++) {
		struct fake_scsi_lu *lu = &s->lus[i];

		if (lu->present)
			continue;
		*lu = (struct fake_scsi_lu){.present = true,
					    .target = target,
					    .lun = lun,
					    .type = type,
					    .removable = type == 5,
					    .block_size = block_size,
					    .blocks = blocks};
		fill(lu, (UINT8)i);
		return lu;
	}
	return NULL;
}

void fake_scsi_change_medium(struct fake_scsi_lu *lu, UINT64 blocks, UINT8 seed)
{
	lu->blocks = blocks;
	fill(lu, seed);
	lu->sense_count = 1;
	lu->sense_key = 0x6;
	lu->sense_asc = 0x28;
}

void fake_scsi_free(struct fake_scsi *s)
{
	for (UINTN i = 0; i < FAKE_SCSI_LUNS; i++) {
		free(s->lus[i].medium);
		s->lus[i].medium = NULL;
	}
}

static UINT8 check(struct ctx *c, UINT8 key, UINT8 asc, UINT8 ascq)
{
	UINT8 data[18] = {0};
	UINT32 n;

	if (c->s->descriptor_sense) {
		data[0] = 0x72;
		data[1] = key;
		data[2] = asc;
		data[3] = ascq;
		n = 8;
	} else {
		data[0] = 0x70;
		data[2] = key;
		data[7] = 10;
		data[12] = asc;
		data[13] = ascq;
		n = 18;
	}
	n = n < *c->sense_len ? n : *c->sense_len;
	memcpy(c->sense, data, n);
	*c->sense_len = n;
	c->in_len = 0;
	return CHECK_CONDITION;
}

static UINT8 give(struct ctx *c, const UINT8 *data, UINT32 len)
{
	UINT32 n = len < c->in_room ? len : c->in_room;

	memcpy(c->in, data, n);
	c->in_len = n;
	return GOOD;
}

static bool target_exists(struct fake_scsi *s, UINT16 target)
{
	for (UINTN i = 0; i < FAKE_SCSI_LUNS; i++)
		if (s->lus[i].present && s->lus[i].target == target)
			return true;
	return false;
}

static UINT8 inquiry(struct ctx *c)
{
	UINT8 d[96] = {0};

	if (c->lu)
		c->lu->inquiries++;
	else {
		d[0] = 0x7f; /* qualifier 3, type 0x1f: no unit at this LUN */
		return give(c, d, 36);
	}
	d[0] = c->lu->type;
	d[1] = c->lu->removable ? 0x80 : 0;
	d[2] = 5;
	d[3] = 2;
	d[4] = 91;
	memcpy(d + 8, "EMBER   FAKE SCSI DISK  0001", 28);
	return give(c, d, sizeof(d));
}

static UINT8 report_luns(struct ctx *c)
{
	UINT8 d[8 + 8 * FAKE_SCSI_LUNS] = {0};
	UINT32 n = 0;

	if (c->s->no_report_luns)
		return check(c, 0x5, 0x20, 0);
	for (UINTN i = 0; i < FAKE_SCSI_LUNS; i++) {
		struct fake_scsi_lu *lu = &c->s->lus[i];
		if (!lu->present || lu->target != c->target || c->s->empty_report_luns)
			continue;
		if (lu->lun < 256) {
			d[8 + 8 * n + 1] = (UINT8)lu->lun;
		} else {
			d[8 + 8 * n] = (UINT8)(0x40 | lu->lun >> 8);
			d[8 + 8 * n + 1] = (UINT8)lu->lun;
		}
		n++;
		lu->report_luns++;
	}
	put_be32(d, 8 * n);
	return give(c, d, 8 + 8 * n);
}

static UINT8 capacity(struct ctx *c, bool sixteen)
{
	struct fake_scsi_lu *lu = c->lu;
	UINT8 d[32] = {0};
	UINT64 last = lu->blocks - 1;

	if (!lu->loaded)
		return check(c, 0x2, 0x3a, 0);
	if (sixteen) {
		lu->cap16++;
		put_be32(d, (UINT32)(last >> 32));
		put_be32(d + 4, (UINT32)last);
		put_be32(d + 8, lu->block_size);
		d[13] = 3; /* eight logical blocks per physical block */
		return give(c, d, 32);
	}
	lu->cap10++;
	put_be32(d, last > 0xfffffffeULL ? 0xffffffff : (UINT32)last);
	put_be32(d + 4, lu->block_size);
	return give(c, d, 8);
}

static UINT8 transfer(struct ctx *c, bool write, UINT64 lba, UINT32 blocks)
{
	struct fake_scsi_lu *lu = c->lu;
	UINT64 bytes = (UINT64)blocks * lu->block_size;

	if (!lu->loaded)
		return check(c, 0x2, 0x3a, 0);
	if (lba > lu->blocks || blocks > lu->blocks - lba)
		return check(c, 0x5, 0x21, 0);
	if (write && (lu->write_protected || lu->type == 5))
		return check(c, 0x7, 0x27, 0);
	if ((write ? c->out_len : c->in_room) < bytes)
		return check(c, 0x5, 0x24, 0);
	lu->last_transfer_blocks = blocks;
	if (write) {
		lu->writes++;
		if (lu->medium)
			memcpy(lu->medium + lba * lu->block_size, c->out, bytes);
		return GOOD;
	}
	lu->reads++;
	if (lu->medium)
		return give(c, lu->medium + lba * lu->block_size, (UINT32)bytes);
	for (UINT64 i = 0; i < bytes; i++)
		c->in[i] = fake_scsi_byte(lu->seed, lba * lu->block_size + i);
	c->in_len = (UINT32)bytes;
	return GOOD;
}

static UINT8 mode_sense(struct ctx *c)
{
	UINT8 d[4] = {3, 0, c->lu->write_protected ? 0x80 : 0, 0};

	return give(c, d, sizeof(d));
}

static UINT8 media_command(struct ctx *c)
{
	const UINT8 *cdb = c->cdb;

	switch (cdb[0]) {
	case 0x00:
		c->lu->turs++;
		return c->lu->loaded ? GOOD : check(c, 0x2, 0x3a, 0);
	case 0x25:
		return capacity(c, false);
	case 0x9e:
		return (cdb[1] & 0x1f) == 0x10 ? capacity(c, true) : check(c, 0x5, 0x24, 0);
	case 0x28:
	case 0x2a:
		return transfer(c, cdb[0] == 0x2a, be32(cdb + 2), (UINT32)cdb[7] << 8 | cdb[8]);
	case 0x88:
	case 0x8a:
		return transfer(c, cdb[0] == 0x8a, be64(cdb + 2), be32(cdb + 10));
	case 0x35:
		c->lu->syncs++;
		return GOOD;
	case 0x1a:
		return mode_sense(c);
	default:
		return check(c, 0x5, 0x20, 0);
	}
}

/* Faults come before the command: a pending sense, then a unit becoming ready. */
static UINT8 unit_command(struct ctx *c)
{
	struct fake_scsi_lu *lu = c->lu;
	UINT8 op = c->cdb[0];

	lu->commands++;
	lu->last_op = op;
	if (lu->sense_count) {
		lu->sense_count--;
		return check(c, lu->sense_key, lu->sense_asc, 0);
	}
	if (lu->not_ready_count && (op == 0x00 || op == 0x28 || op == 0x88)) {
		lu->not_ready_count--;
		return check(c, 0x2, 0x04, 0x01);
	}
	return media_command(c);
}

UINT8 fake_scsi_execute(struct fake_scsi *s, UINT16 target, UINT16 lun, const UINT8 *cdb,
			UINT8 cdb_len, const UINT8 *out, UINT32 out_len, UINT8 *in, UINT32 *in_len,
			UINT8 *sense, UINT32 *sense_len)
{
	struct ctx c = {s, NULL, target, lun, cdb, out, out_len, in, *in_len, 0, sense, sense_len};
	UINT8 status;

	if (!target_exists(s, target))
		return FAKE_SCSI_NO_TARGET;
	for (UINTN i = 0; i < FAKE_SCSI_LUNS; i++)
		if (s->lus[i].present && s->lus[i].target == target && s->lus[i].lun == lun)
			c.lu = &s->lus[i];
	if (cdb[0] == 0x12)
		status = inquiry(&c);
	else if (cdb[0] == 0xa0)
		status = report_luns(&c);
	else if (!c.lu)
		status = check(&c, 0x5, 0x25, 0);
	else
		status = unit_command(&c);
	if (status == GOOD)
		*sense_len = 0;
	*in_len = c.in_len;
	return status;
}
