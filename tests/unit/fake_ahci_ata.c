/* The devices behind the fake AHCI HBA (see fake_ahci.h): an ATA disk (ACS-3: IDENTIFY
 * DEVICE, READ/WRITE DMA and their EXT forms, FLUSH CACHE and FLUSH CACHE EXT) and an ATAPI
 * CD-ROM drive (IDENTIFY PACKET DEVICE) taking SCSI commands in a PACKET (SPC/MMC: TEST
 * UNIT READY, REQUEST SENSE,
 * INQUIRY, READ CAPACITY(10), READ(10)), with sense data, unit attentions and a medium that
 * comes and goes. Written from the standards, independently of the driver's ata.h. */
#include <string.h>

#include "fake_ahci.h"
#include <ember/lib/util.h>

#define ATA_IDENTIFY 0xec
#define ATA_PACKET 0xa0
#define ATA_IDENTIFY_PACKET 0xa1
#define ATA_READ_DMA 0xc8
#define ATA_READ_DMA_EXT 0x25
#define ATA_WRITE_DMA 0xca
#define ATA_WRITE_DMA_EXT 0x35
#define ATA_FLUSH 0xe7
#define ATA_FLUSH_EXT 0xea
#define DEVICE_LBA 0x40

#define SCSI_TEST_UNIT_READY 0x00
#define SCSI_REQUEST_SENSE 0x03
#define SCSI_INQUIRY 0x12
#define SCSI_READ_CAPACITY 0x25
#define SCSI_READ_10 0x28
#define KEY_NOT_READY 0x2
#define KEY_ILLEGAL_REQUEST 0x5
#define KEY_UNIT_ATTENTION 0x6
#define ASC_BECOMING_READY 0x04
#define ASC_INVALID_OPCODE 0x20
#define ASC_LBA_OUT_OF_RANGE 0x21
#define ASC_MEDIUM_CHANGED 0x28
#define ASC_POWER_ON 0x29
#define ASC_NO_MEDIUM 0x3a
#define CD_BLOCK 2048

static const struct fake_ahci_status good = {FAKE_ATA_DRDY | FAKE_ATA_DSC, 0};
static const struct fake_ahci_status aborted = {FAKE_ATA_DRDY | FAKE_ATA_ERR, FAKE_ATA_ABRT};

static void violation(struct fake_ahci_port *p, const char *what)
{
	fake_pci_io_error(p->hba->pci, "%s", what);
}

static struct fake_ahci_status failed(UINT8 error)
{
	return (struct fake_ahci_status){FAKE_ATA_DRDY | FAKE_ATA_ERR, error};
}

/* ---- The disk ---- */

static void put_string(UINT16 *words, const char *s, UINT32 count)
{
	for (UINT32 i = 0; i < count; i++) {
		char hi = *s ? *s++ : ' ';
		char lo = *s ? *s++ : ' ';
		words[i] = (UINT16)((UINT8)hi << 8 | (UINT8)lo);
	}
}

static void put_words(UINT16 *words, UINT64 value, UINT32 count)
{
	for (UINT32 i = 0; i < count; i++, value >>= 16)
		words[i] = (UINT16)value;
}

void fake_ahci_build_identify(struct fake_ahci_port *p)
{
	const struct fake_ahci_disk *d = &p->disk;
	UINT16 *id = p->identify;

	memset(id, 0, sizeof(p->identify));
	id[0] = 0x0040; /* ATA device, not removable */
	put_string(&id[10], "EMBER0001", 10);
	put_string(&id[23], "1.0", 4);
	put_string(&id[27], "Ember Fake Disk", 20);
	id[49] = 0x0300; /* LBA and DMA */
	put_words(&id[60], MIN(d->sectors, 0x0fffffffULL), 2);
	id[83] = 0x4000 | (d->lba28 ? 0 : 0x0400 | 0x2000); /* 48-bit, FLUSH CACHE EXT */
	id[85] = d->write_cache ? 0x0020 : 0;
	id[86] = id[83] & 0x3fff;
	id[87] = 0x4000;
	if (!d->lba28)
		put_words(&id[100], d->sectors, 4);
	id[106] = 0x4000 | (d->sector_size != 512 ? 0x1000 : 0) |
		  (d->physical_shift ? 0x2000 | d->physical_shift : 0);
	if (d->sector_size != 512)
		put_words(&id[117], d->sector_size / 2, 2); /* in words */
	id[209] = 0x4000 | d->alignment;
}

/* Whether the header's W bit says what the command does. */
static void check_direction(struct fake_ahci_port *p, const struct fake_ahci_xfer *x, bool writes)
{
	if (x->header_write != writes)
		violation(p, writes ? "a write command without the header's W bit"
				    : "the header's W bit on a command that reads");
}

static struct fake_ahci_status disk_rw(struct fake_ahci_port *p, const UINT8 *fis,
				       struct fake_ahci_xfer *x, bool write, bool ext)
{
	struct fake_ahci_disk *d = &p->disk;
	UINT64 lba = fis[4] | (UINT64)fis[5] << 8 | (UINT64)fis[6] << 16;
	UINT32 count, good_count;
	UINT8 *at;

	if (ext && d->lba28)
		return aborted;
	if (!(fis[7] & DEVICE_LBA))
		violation(p, "a read or write without the LBA bit in the device register");
	check_direction(p, x, write);
	if (ext) {
		lba |= (UINT64)fis[8] << 24 | (UINT64)fis[9] << 32 | (UINT64)fis[10] << 40;
		count = fis[12] | (UINT32)fis[13] << 8;
		count = count ? count : 65536;
	} else {
		lba |= (UINT64)(fis[7] & 0x0f) << 24;
		count = fis[12] ? fis[12] : 256;
	}
	p->last_lba = lba;
	if (write)
		p->writes++;
	else
		p->reads++;
	if (lba >= d->sectors || count > d->sectors - lba)
		return failed(FAKE_ATA_IDNF | FAKE_ATA_ABRT);
	/* Sectors before a bad one go through; then the command fails. */
	good_count = d->bad_sector && d->bad_lba >= lba && d->bad_lba - lba < count
			 ? (UINT32)(d->bad_lba - lba)
			 : count;
	at = d->data + lba * d->sector_size;
	if (write ? !fake_ahci_from_host(x, at, good_count * d->sector_size)
		  : !fake_ahci_to_host(x, at, good_count * d->sector_size))
		return failed(FAKE_ATA_ABRT);
	if (write)
		p->sectors_written += good_count;
	else
		p->sectors_read += good_count;
	if (good_count < count)
		return failed(write ? FAKE_ATA_ABRT : FAKE_ATA_UNC);
	return good;
}

static struct fake_ahci_status disk_command(struct fake_ahci_port *p, const UINT8 *fis,
					    struct fake_ahci_xfer *x)
{
	switch (fis[2]) {
	case ATA_IDENTIFY:
		p->identifies++;
		check_direction(p, x, false);
		return fake_ahci_to_host(x, p->identify, sizeof(p->identify)) ? good : aborted;
	case ATA_READ_DMA:
	case ATA_READ_DMA_EXT:
		return disk_rw(p, fis, x, false, fis[2] == ATA_READ_DMA_EXT);
	case ATA_WRITE_DMA:
	case ATA_WRITE_DMA_EXT:
		return disk_rw(p, fis, x, true, fis[2] == ATA_WRITE_DMA_EXT);
	case ATA_FLUSH_EXT:
		if (p->disk.lba28)
			return aborted;
		/* fall through */
	case ATA_FLUSH:
		p->flushes++;
		return good;
	default:
		return aborted;
	}
}

/* ---- The CD-ROM drive ---- */

static struct fake_ahci_status check_condition(struct fake_ahci_port *p, UINT8 key, UINT8 asc,
					       UINT8 ascq)
{
	p->cd.key = key;
	p->cd.asc = asc;
	p->cd.ascq = ascq;
	/* ATAPI: CHK in the status, the sense key in the error register's high nibble. */
	return failed((UINT8)(key << 4));
}

static struct fake_ahci_status cd_good(struct fake_ahci_port *p)
{
	p->cd.key = p->cd.asc = p->cd.ascq = 0;
	return (struct fake_ahci_status){FAKE_ATA_DRDY, 0};
}

/* What every medium access checks first: a unit attention, a drive spinning up, a tray
 * without a medium. */
static bool cd_ready(struct fake_ahci_port *p, struct fake_ahci_status *st)
{
	struct fake_ahci_cd *cd = &p->cd;

	if (cd->attention) {
		cd->attention = false;
		*st = check_condition(p, KEY_UNIT_ATTENTION, cd->attention_asc, 0);
	} else if (cd->becoming_ready) {
		cd->becoming_ready--;
		*st = check_condition(p, KEY_NOT_READY, ASC_BECOMING_READY, 1);
	} else if (!cd->present) {
		*st = check_condition(p, KEY_NOT_READY, ASC_NO_MEDIUM, 0);
	} else {
		*st = cd_good(p);
		return true;
	}
	return false;
}

static struct fake_ahci_status data_in(struct fake_ahci_port *p, struct fake_ahci_xfer *x,
				       const void *data, UINT32 bytes)
{
	struct fake_ahci_status st = cd_good(p);

	check_direction(p, x, false);
	return fake_ahci_to_host(x, data, bytes) ? st : aborted;
}

static struct fake_ahci_status cd_sense(struct fake_ahci_port *p, const UINT8 *cdb,
					struct fake_ahci_xfer *x)
{
	struct fake_ahci_cd *cd = &p->cd;
	UINT8 sense[18] = {0};
	UINT32 bytes = MIN((UINT32)cdb[4], (UINT32)sizeof(sense));

	if (cd->attention) { /* a pending unit attention is the sense it reports */
		cd->attention = false;
		cd->key = KEY_UNIT_ATTENTION;
		cd->asc = cd->attention_asc;
		cd->ascq = 0;
	}
	if (cd->descriptor_sense) {
		sense[0] = 0x72;
		sense[1] = cd->key;
		sense[2] = cd->asc;
		sense[3] = cd->ascq;
	} else {
		sense[0] = 0x70;
		sense[2] = cd->key;
		sense[7] = sizeof(sense) - 8;
		sense[12] = cd->asc;
		sense[13] = cd->ascq;
	}
	return data_in(p, x, sense, bytes);
}

static struct fake_ahci_status cd_inquiry(struct fake_ahci_port *p, const UINT8 *cdb,
					  struct fake_ahci_xfer *x)
{
	UINT8 data[36] = {0x05, 0x80, 0x05, 0x32, sizeof(data) - 5};
	UINT32 bytes = MIN((UINT32)(cdb[3] << 8 | cdb[4]), (UINT32)sizeof(data));

	memcpy(data + 8, "EMBER   FAKE CD-ROM     1.0 ", 28);
	return data_in(p, x, data, bytes);
}

static void put_be32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

static struct fake_ahci_status cd_capacity(struct fake_ahci_port *p, struct fake_ahci_xfer *x)
{
	UINT8 data[8];
	struct fake_ahci_status st;

	if (!cd_ready(p, &st))
		return st;
	put_be32(data, p->cd.blocks - 1);
	put_be32(data + 4, p->cd.reported_block_size ? p->cd.reported_block_size : CD_BLOCK);
	return data_in(p, x, data, sizeof(data));
}

static struct fake_ahci_status cd_read(struct fake_ahci_port *p, const UINT8 *cdb,
				       struct fake_ahci_xfer *x)
{
	UINT32 lba = (UINT32)cdb[2] << 24 | (UINT32)cdb[3] << 16 | (UINT32)cdb[4] << 8 | cdb[5];
	UINT32 count = (UINT32)cdb[7] << 8 | cdb[8];
	struct fake_ahci_status st;

	p->reads++;
	p->last_lba = lba;
	if (!cd_ready(p, &st))
		return st;
	if (lba >= p->cd.blocks || count > p->cd.blocks - lba)
		return check_condition(p, KEY_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
	p->sectors_read += count;
	return data_in(p, x, p->cd.data + (UINT64)lba * CD_BLOCK, count * CD_BLOCK);
}

/* IDENTIFY PACKET DEVICE (ACS-3, 7.13): a removable CD-ROM device with 12-byte packets. */
static struct fake_ahci_status cd_identify(struct fake_ahci_port *p, struct fake_ahci_xfer *x)
{
	UINT16 id[256] = {0};

	id[0] = 0x85c0;
	put_string(&id[27], "Ember Fake CD-ROM", 20);
	check_direction(p, x, false);
	return fake_ahci_to_host(x, id, sizeof(id)) ? good : aborted;
}

static struct fake_ahci_status cd_command(struct fake_ahci_port *p, const UINT8 *fis,
					  const UINT8 *cdb, struct fake_ahci_xfer *x)
{
	struct fake_ahci_status st;

	/* A packet device aborts the ATA commands of disks, IDENTIFY DEVICE first. */
	if (fis[2] == ATA_IDENTIFY_PACKET)
		return cd_identify(p, x);
	if (fis[2] != ATA_PACKET)
		return aborted;
	if (!cdb) {
		violation(p, "PACKET without the header's A bit: the packet never goes out");
		return aborted;
	}
	if (!(fis[3] & 1))
		violation(p, "PACKET without DMA in the features: this drive does DMA only");
	p->packets++;
	p->last_cdb_op = cdb[0];
	switch (cdb[0]) {
	case SCSI_TEST_UNIT_READY:
		cd_ready(p, &st);
		return st;
	case SCSI_REQUEST_SENSE:
		return cd_sense(p, cdb, x);
	case SCSI_INQUIRY:
		return cd_inquiry(p, cdb, x);
	case SCSI_READ_CAPACITY:
		return cd_capacity(p, x);
	case SCSI_READ_10:
		return cd_read(p, cdb, x);
	default:
		return check_condition(p, KEY_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
	}
}

void fake_ahci_cd_insert(struct fake_ahci_port *p, UINT8 *data, UINT32 blocks)
{
	p->cd.present = true;
	p->cd.data = data;
	p->cd.blocks = blocks;
	p->cd.attention = true;
	p->cd.attention_asc = ASC_MEDIUM_CHANGED;
}

void fake_ahci_cd_eject(struct fake_ahci_port *p)
{
	p->cd.present = false;
	p->cd.data = NULL;
	p->cd.blocks = 0;
}

/* ---- Both ---- */

struct fake_ahci_status fake_ahci_device_command(struct fake_ahci_port *p, const UINT8 *fis,
						 const UINT8 *cdb, struct fake_ahci_xfer *x)
{
	p->last_command = fis[2];
	if (p->device == FAKE_AHCI_CDROM)
		return cd_command(p, fis, cdb, x);
	if (cdb)
		violation(p, "the header's A bit on a command for a disk");
	if (p->device == FAKE_AHCI_DISK)
		return disk_command(p, fis, x);
	return aborted;
}

UINT8 fake_ahci_ready_status(const struct fake_ahci_port *p)
{
	/* ATA devices come up with DRDY; packet devices with a clear status (ACS-3, 9.1). */
	return p->device == FAKE_AHCI_CDROM ? 0x00 : FAKE_ATA_DRDY | FAKE_ATA_DSC;
}

UINT32 fake_ahci_signature(const struct fake_ahci_port *p)
{
	switch (p->device) {
	case FAKE_AHCI_DISK:
		return 0x00000101;
	case FAKE_AHCI_CDROM:
		return 0xeb140101;
	default:
		return p->other_signature;
	}
}

void fake_ahci_device_reset(struct fake_ahci_port *p)
{
	if (p->device != FAKE_AHCI_CDROM)
		return;
	p->cd.attention = true;
	p->cd.attention_asc = ASC_POWER_ON;
}
