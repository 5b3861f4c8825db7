/* The fake IDE controller (see fake_ide.h): task-file registers per drive, the PIO data-in,
 * data-out and PACKET protocols, the channel's software reset, and the commands of a disk
 * and a CD-ROM drive. */
#include <stdlib.h>
#include <string.h>

#include "fake_ide.h"
#include <ember/lib/util.h>

#define ST_ERR 0x01
#define ST_DRQ 0x08
#define ST_DSC 0x10
#define ST_DRDY 0x40
#define ST_BSY 0x80
#define ERR_ABRT 0x04
#define ERR_IDNF 0x10
#define CTL_SRST 0x04
#define DEV_LBA 0x40
#define DEV_SLAVE 0x10
#define FLOATING 0xff

enum { TF_FEATURES, TF_COUNT, TF_LOW, TF_MID, TF_HIGH, TF_DEVICE };
enum { PH_IDLE, PH_CDB, PH_IN, PH_OUT, PH_DMA };

#define BM_START 0x01
#define BM_TO_MEMORY 0x08
#define BM_ACTIVE 0x01
#define BM_ERROR 0x02
#define BM_INTERRUPT 0x04

#define SCSI_TUR 0x00
#define SCSI_SENSE 0x03
#define SCSI_CAPACITY 0x25
#define SCSI_READ10 0x28
#define KEY_NOT_READY 0x2
#define KEY_MEDIUM_ERROR 0x3
#define KEY_ILLEGAL 0x5
#define KEY_ATTENTION 0x6
#define CD_BLOCK 2048
#define CDB_BYTES 12

static const UINT16 legacy_cmd[2] = {0x1f0, 0x170};
static const UINT16 legacy_ctl[2] = {0x3f6, 0x376};

static void violation(struct fake_ide_channel *ch, const char *what)
{
	fake_pci_io_error(ch->ide->pci, "IDE channel %u: %s", ch->index, what);
}

static struct fake_ide_drive *sel(struct fake_ide_channel *ch)
{
	return &ch->drives[ch->selected];
}

static bool channel_empty(struct fake_ide_channel *ch)
{
	return ch->drives[0].kind == FAKE_IDE_NONE && ch->drives[1].kind == FAKE_IDE_NONE;
}

static void end_phase(struct fake_ide_channel *ch)
{
	free(ch->buf);
	ch->buf = NULL;
	ch->phase = PH_IDLE;
	ch->len = ch->pos = ch->block = ch->block_pos = 0;
}

static void fail(struct fake_ide_channel *ch, struct fake_ide_drive *d, UINT8 error)
{
	end_phase(ch);
	d->status = ST_DRDY | ST_ERR;
	d->error = error;
}

static void signature(struct fake_ide_drive *d)
{
	d->tf[0][TF_COUNT] = 1;
	d->tf[0][TF_LOW] = 1;
	d->tf[0][TF_MID] = d->kind == FAKE_IDE_CD ? 0x14 : 0;
	d->tf[0][TF_HIGH] = d->kind == FAKE_IDE_CD ? 0xeb : 0;
}

/* ---- Data phases ---- */

static void atapi_next_block(struct fake_ide_channel *ch, struct fake_ide_drive *d)
{
	UINT32 limit = d->tf[0][TF_MID] | (UINT32)d->tf[0][TF_HIGH] << 8;

	ch->block = d->zero_blocks ? 0 : MIN(limit, ch->len - ch->pos) + d->extra_bytes;
	ch->block_pos = 0;
	d->tf[0][TF_MID] = (UINT8)ch->block;
	d->tf[0][TF_HIGH] = (UINT8)(ch->block >> 8);
	d->tf[0][TF_COUNT] = 2; /* I/O: to the host */
}

static void atapi_done(struct fake_ide_channel *ch, struct fake_ide_drive *d)
{
	end_phase(ch);
	d->status = ST_DRDY | ST_DSC;
	d->tf[0][TF_COUNT] = 3; /* I/O and C/D: the status */
}

/* Starts a data-in phase with a copy of bytes (for ATAPI in blocks of the byte count). */
static void data_in(struct fake_ide_channel *ch, struct fake_ide_drive *d, const void *src,
		    UINT32 bytes, bool atapi)
{
	end_phase(ch);
	if (!bytes) {
		if (atapi)
			atapi_done(ch, d);
		else
			d->status = ST_DRDY | ST_DSC;
		return;
	}
	ch->buf = malloc(bytes);
	memcpy(ch->buf, src, bytes);
	ch->len = bytes;
	ch->phase = atapi && ch->packet_dma ? PH_DMA : PH_IN;
	ch->out = false;
	d->status = ST_DRDY | ST_DRQ;
	if (ch->phase == PH_IN && atapi)
		atapi_next_block(ch, d);
}

static UINT16 read_data(struct fake_ide_channel *ch)
{
	struct fake_ide_drive *d = sel(ch);
	UINT16 v = 0;

	if (ch->phase != PH_IN) {
		violation(ch, ch->phase == PH_DMA ? "PIO read of a DMA command's data"
						  : "data read without DRQ");
		return 0xffff;
	}
	if (ch->pos + 2 <= ch->len)
		memcpy(&v, ch->buf + ch->pos, 2);
	ch->pos += 2;
	if (d->kind == FAKE_IDE_CD) {
		ch->block_pos += 2;
		if (ch->block_pos < ch->block)
			return v;
		if (ch->pos >= ch->len)
			atapi_done(ch, d);
		else
			atapi_next_block(ch, d);
	} else if (ch->pos >= ch->len) {
		end_phase(ch);
		d->status = ST_DRDY | ST_DSC;
	}
	return v;
}

/* ---- ATA commands ---- */

static bool rw_range(struct fake_ide_drive *d, bool ext, UINT64 *lba, UINT32 *count)
{
	UINT8 *t = d->tf[0], *p = d->tf[1];

	if (ext) {
		*lba = t[TF_LOW] | (UINT64)t[TF_MID] << 8 | (UINT64)t[TF_HIGH] << 16 |
		       (UINT64)p[TF_LOW] << 24 | (UINT64)p[TF_MID] << 32 | (UINT64)p[TF_HIGH] << 40;
		*count = t[TF_COUNT] | (UINT32)p[TF_COUNT] << 8;
		*count = *count ? *count : 65536;
	} else {
		*lba = t[TF_LOW] | (UINT64)t[TF_MID] << 8 | (UINT64)t[TF_HIGH] << 16 |
		       (UINT64)(t[TF_DEVICE] & 0xf) << 24;
		*count = t[TF_COUNT] ? t[TF_COUNT] : 256;
	}
	return (t[TF_DEVICE] & DEV_LBA) && *lba < d->sectors && *count <= d->sectors - *lba;
}

static void run_dma(struct fake_ide_channel *ch);

static void read_write(struct fake_ide_channel *ch, struct fake_ide_drive *d, bool ext, bool write,
		       bool dma)
{
	UINT64 lba;
	UINT32 count;

	if (d->kind != FAKE_IDE_DISK || (ext && d->lba28))
		return fail(ch, d, ERR_ABRT);
	if (!rw_range(d, ext, &lba, &count))
		return fail(ch, d, ERR_IDNF);
	if (!write && !dma)
		return data_in(ch, d, d->data + lba * 512, count * 512, false);
	end_phase(ch);
	ch->buf = malloc(count * 512);
	ch->len = count * 512;
	if (!write)
		memcpy(ch->buf, d->data + lba * 512, ch->len);
	ch->phase = dma ? PH_DMA : PH_OUT;
	ch->out = write;
	ch->write_lba = lba;
	d->status = ST_DRDY | ST_DRQ;
	if (dma && (ch->bm_command & BM_START))
		run_dma(ch);
}

static void ata_command(struct fake_ide_channel *ch, struct fake_ide_drive *d, UINT8 cmd)
{
	bool disk = d->kind == FAKE_IDE_DISK;

	switch (cmd) {
	case 0xec:
	case 0xa1:
		if (disk != (cmd == 0xec)) {
			signature(d); /* an aborted IDENTIFY shows what the drive is */
			return fail(ch, d, ERR_ABRT);
		}
		return data_in(ch, d, d->identify, 512, false);
	case 0x20:
	case 0x24:
	case 0x30:
	case 0x34:
		return read_write(ch, d, cmd & 0x04, cmd & 0x10, false);
	case 0xc8:
	case 0xca:
		return read_write(ch, d, false, cmd == 0xca, true);
	case 0x25:
	case 0x35:
		return read_write(ch, d, true, cmd == 0x35, true);
	case 0xe7:
	case 0xea:
		if (!disk || (cmd == 0xea && d->lba28))
			return fail(ch, d, ERR_ABRT);
		d->status = ST_DRDY | ST_DSC;
		return;
	case 0xa0:
		if (disk)
			return fail(ch, d, ERR_ABRT);
		end_phase(ch);
		ch->buf = calloc(1, CDB_BYTES);
		ch->len = CDB_BYTES;
		ch->phase = PH_CDB;
		ch->out = true;
		ch->packet_dma = d->tf[0][TF_FEATURES] & 1;
		d->tf[0][TF_COUNT] = 1; /* C/D: the packet */
		d->status = ST_DRDY | ST_DRQ;
		return;
	default:
		return fail(ch, d, ERR_ABRT);
	}
}

/* ---- ATAPI ---- */

static void check_condition(struct fake_ide_channel *ch, struct fake_ide_drive *d, UINT8 key,
			    UINT8 asc)
{
	d->key = key;
	d->asc = asc;
	fail(ch, d, (UINT8)(key << 4 | ERR_ABRT));
	d->tf[0][TF_COUNT] = 3;
}

static UINT32 be(const UINT8 *p, UINT32 n)
{
	UINT32 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static void put_be32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

static void packet(struct fake_ide_channel *ch, struct fake_ide_drive *d, const UINT8 *cdb)
{
	UINT8 data[18] = {0};

	if (d->attention && cdb[0] != SCSI_SENSE) {
		d->attention = false;
		return check_condition(ch, d, KEY_ATTENTION, 0x28);
	}
	if (cdb[0] == SCSI_SENSE) {
		data[0] = 0x70;
		data[2] = d->key;
		data[7] = 10;
		data[12] = d->asc;
		d->key = d->asc = 0;
		return data_in(ch, d, data, MIN(18u, cdb[4]), true);
	}
	if (cdb[0] != SCSI_TUR && cdb[0] != SCSI_CAPACITY && cdb[0] != SCSI_READ10)
		return check_condition(ch, d, KEY_ILLEGAL, 0x20);
	if (!d->present)
		return check_condition(ch, d, KEY_NOT_READY, 0x3a);
	if (cdb[0] == SCSI_TUR)
		return data_in(ch, d, NULL, 0, true);
	if (cdb[0] == SCSI_CAPACITY) {
		put_be32(data, (UINT32)d->sectors - 1);
		put_be32(data + 4, CD_BLOCK);
		return data_in(ch, d, data, 8, true);
	}
	if (d->fail_cdb == cdb[0])
		return check_condition(ch, d, KEY_MEDIUM_ERROR, 0x11);
	UINT32 lba = be(cdb + 2, 4), blocks = be(cdb + 7, 2);
	if (lba > d->sectors || blocks > d->sectors - lba)
		return check_condition(ch, d, KEY_ILLEGAL, 0x21);
	data_in(ch, d, d->data + (UINT64)lba * CD_BLOCK, blocks * CD_BLOCK, true);
}

static void write_data(struct fake_ide_channel *ch, UINT16 v)
{
	struct fake_ide_drive *d = sel(ch);

	if (ch->phase != PH_CDB && ch->phase != PH_OUT) {
		violation(ch, "data write without DRQ");
		return;
	}
	memcpy(ch->buf + ch->pos, &v, 2);
	ch->pos += 2;
	if (ch->pos < ch->len)
		return;
	if (ch->phase == PH_CDB) {
		UINT8 cdb[CDB_BYTES];

		memcpy(cdb, ch->buf, CDB_BYTES);
		end_phase(ch);
		packet(ch, d, cdb);
		if (ch->phase == PH_DMA && (ch->bm_command & BM_START))
			run_dma(ch);
		return;
	}
	memcpy(d->data + ch->write_lba * 512, ch->buf, ch->len);
	end_phase(ch);
	d->status = ST_DRDY | ST_DSC;
}

/* ---- Bus-master DMA ---- */

/* Moves the pending DMA command's data through the PRD table. */
static void run_dma(struct fake_ide_channel *ch)
{
	struct fake_ide_drive *d = sel(ch);
	struct fake_pci_io *pci = ch->ide->pci;
	UINT32 done = 0;

	if (!(ch->bm_command & BM_TO_MEMORY) != ch->out)
		violation(ch, "bus master started in the wrong direction");
	for (UINT32 i = 0; done < ch->len; i++) {
		UINT32 *prd = fake_pci_io_dma(pci, ch->bm_prdt + 8ULL * i, 8, false);
		UINT32 count, take;
		UINT8 *mem;

		if (!prd) {
			ch->bm_status |= BM_ERROR;
			break;
		}
		count = prd[1] & 0xffff ? prd[1] & 0xffff : 0x10000;
		if ((prd[0] & 1) || (prd[0] & 0xffff) + count > 0x10000)
			violation(ch, "PRD region odd or across a 64 KiB boundary");
		take = MIN(count, ch->len - done);
		mem = fake_pci_io_dma(pci, prd[0], take, !ch->out);
		if (!mem) {
			ch->bm_status |= BM_ERROR;
			break;
		}
		if (ch->out)
			memcpy(ch->buf + done, mem, take);
		else
			memcpy(mem, ch->buf + done, take);
		done += take;
		if ((prd[1] & 0x80000000u) && done < ch->len) {
			violation(ch, "PRD table shorter than the transfer");
			break;
		}
	}
	ch->dma_commands++;
	if (ch->out && done == ch->len)
		memcpy(d->data + ch->write_lba * 512, ch->buf, ch->len);
	if (d->kind == FAKE_IDE_CD)
		atapi_done(ch, d);
	else
		end_phase(ch);
	d->status = ST_DRDY | ST_DSC;
	ch->bm_status = (UINT8)((ch->bm_status & ~BM_ACTIVE) | BM_INTERRUPT);
}

static UINT64 bm_read(void *dev, UINT64 offset, UINT32 width)
{
	struct fake_ide *ide = dev;
	struct fake_ide_channel *ch = &ide->channels[offset / 8 & 1];

	switch (offset % 8) {
	case 0:
		return ch->bm_command;
	case 2:
		return ch->bm_status;
	case 4:
		return ch->bm_prdt;
	default:
		violation(ch, "read of a reserved bus-master register");
		return 0;
	}
}

static void bm_write(void *dev, UINT64 offset, UINT32 width, UINT64 v)
{
	struct fake_ide *ide = dev;
	struct fake_ide_channel *ch = &ide->channels[offset / 8 & 1];
	bool was = ch->bm_command & BM_START;

	if (offset % 8 == 4) {
		if (width != 4 || (v & 3))
			violation(ch, "PRD table address not a dword at a dword boundary");
		ch->bm_prdt = (UINT32)v;
	} else if (offset % 8 == 2) {
		ch->bm_status &= (UINT8) ~(v & (BM_ERROR | BM_INTERRUPT));
	} else if (offset % 8 == 0) {
		ch->bm_command = (UINT8)v & (BM_START | BM_TO_MEMORY);
		if (!was && (v & BM_START)) {
			/* Started: a pending command moves its data; without one the bus master
			 * stays active until stopped. */
			ch->bm_status |= BM_ACTIVE;
			if (ch->phase == PH_DMA)
				run_dma(ch);
		} else if (!(v & BM_START)) {
			ch->bm_status &= (UINT8)~BM_ACTIVE;
		}
	} else {
		violation(ch, "write of a reserved bus-master register");
	}
}

void fake_ide_enable_dma(struct fake_ide *ide)
{
	struct fake_pci_bar bar = {16, true, bm_read, bm_write, ide};

	fake_pci_io_set_bar(ide->pci, 4, &bar);
}

/* ---- Registers ---- */

static void command(struct fake_ide_channel *ch, UINT8 cmd)
{
	struct fake_ide_drive *d = sel(ch);

	if (d->kind == FAKE_IDE_NONE)
		return; /* nobody there to take it */
	if ((d->status & (ST_BSY | ST_DRQ)) || ch->phase != PH_IDLE) {
		violation(ch, "command written while the drive is busy");
		return;
	}
	d->commands++;
	d->last_command = cmd;
	d->error = 0;
	if (d->hang) {
		d->status = ST_BSY;
		return;
	}
	if (cmd == d->fail_command)
		return fail(ch, d, ERR_ABRT);
	ata_command(ch, d, cmd);
}

static UINT8 status(struct fake_ide_channel *ch)
{
	if (channel_empty(ch))
		return FLOATING;
	if (ch->control & CTL_SRST)
		return ST_BSY;
	return sel(ch)->kind == FAKE_IDE_NONE ? 0 : sel(ch)->status;
}

static UINT64 cmd_read(struct fake_ide_channel *ch, UINT32 reg, UINT32 width)
{
	if ((reg == 0) != (width == 2) || width > 2) {
		violation(ch, "register read of the wrong width");
		return ~0ULL;
	}
	if (reg == 0)
		return read_data(ch);
	if (channel_empty(ch))
		return FLOATING;
	if (sel(ch)->kind == FAKE_IDE_NONE)
		return 0;
	if (reg == 7)
		return status(ch);
	return reg == 1 ? sel(ch)->error : sel(ch)->tf[0][reg - 1];
}

static void cmd_write(struct fake_ide_channel *ch, UINT32 reg, UINT32 width, UINT64 v)
{
	if ((reg == 0) != (width == 2) || width > 2)
		return violation(ch, "register write of the wrong width");
	if (reg == 0)
		return write_data(ch, (UINT16)v);
	if (reg == 7)
		return command(ch, (UINT8)v);
	if (sel(ch)->status & ST_BSY)
		return violation(ch, "task file written while the drive is busy");
	for (int i = 0; i < 2; i++) {
		ch->drives[i].tf[1][reg - 1] = ch->drives[i].tf[0][reg - 1];
		ch->drives[i].tf[0][reg - 1] = (UINT8)v;
	}
	if (reg == 6) {
		if (ch->phase != PH_IDLE)
			violation(ch, "drive selected in the middle of a command");
		ch->selected = (v & DEV_SLAVE) ? 1 : 0;
	}
}

static void reset(struct fake_ide_channel *ch)
{
	end_phase(ch);
	ch->resets++;
	ch->selected = 0;
	for (int i = 0; i < 2; i++) {
		struct fake_ide_drive *d = &ch->drives[i];

		signature(d);
		d->hang = false;
		d->status = d->kind == FAKE_IDE_DISK ? ST_DRDY | ST_DSC : 0;
		d->error = 1;
	}
}

static void ctl_write(struct fake_ide_channel *ch, UINT8 v)
{
	bool was = ch->control & CTL_SRST;

	ch->control = v;
	if (was && !(v & CTL_SRST))
		reset(ch);
}

/* ---- The PCI function: legacy ports or BARs ---- */

static UINT64 legacy_read(void *dev, UINT64 port, UINT32 width)
{
	struct fake_ide *ide = dev;

	for (int c = 0; c < 2; c++) {
		struct fake_ide_channel *ch = &ide->channels[c];

		if (port >= legacy_cmd[c] && port < legacy_cmd[c] + 8u)
			return cmd_read(ch, (UINT32)(port - legacy_cmd[c]), width);
		if (port == legacy_ctl[c])
			return status(ch);
	}
	fake_pci_io_error(ide->pci, "read of I/O port %#llx", (unsigned long long)port);
	return ~0ULL;
}

static void legacy_write(void *dev, UINT64 port, UINT32 width, UINT64 v)
{
	struct fake_ide *ide = dev;

	for (int c = 0; c < 2; c++) {
		struct fake_ide_channel *ch = &ide->channels[c];

		if (port >= legacy_cmd[c] && port < legacy_cmd[c] + 8u)
			return cmd_write(ch, (UINT32)(port - legacy_cmd[c]), width, v);
		if (port == legacy_ctl[c])
			return ctl_write(ch, (UINT8)v);
	}
	fake_pci_io_error(ide->pci, "write of I/O port %#llx", (unsigned long long)port);
}

static UINT64 bar_cmd_read(void *dev, UINT64 offset, UINT32 width)
{
	return cmd_read(dev, (UINT32)offset, width);
}

static void bar_cmd_write(void *dev, UINT64 offset, UINT32 width, UINT64 v)
{
	cmd_write(dev, (UINT32)offset, width, v);
}

static UINT64 bar_ctl_read(void *dev, UINT64 offset, UINT32 width)
{
	if (offset != 2)
		violation(dev, "control block read outside its register");
	return status(dev);
}

static void bar_ctl_write(void *dev, UINT64 offset, UINT32 width, UINT64 v)
{
	if (offset != 2)
		return violation(dev, "control block write outside its register");
	ctl_write(dev, (UINT8)v);
}

struct fake_ide *fake_ide_create(UINT8 pci_dev, bool native)
{
	const struct fake_pci_io_config config = {
	    .vendor = 0x8086,
	    .device = 0x7010, /* PIIX3 IDE */
	    .class_code = native ? 0x01018f : 0x010180,
	    .dev = pci_dev,
	    .fn = 1,
	    .supports = EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER |
			EFI_PCI_IO_ATTRIBUTE_IDE_PRIMARY_IO | EFI_PCI_IO_ATTRIBUTE_IDE_SECONDARY_IO,
	};
	struct fake_ide *ide = calloc(1, sizeof(*ide));

	if (!ide)
		return NULL;
	ide->pci = fake_pci_io_create(&config);
	if (!ide->pci) {
		free(ide);
		return NULL;
	}
	ide->native = native;
	for (UINT8 c = 0; c < 2; c++) {
		struct fake_ide_channel *ch = &ide->channels[c];

		ch->ide = ide;
		ch->index = c;
		if (native) {
			struct fake_pci_bar cmd = {8, true, bar_cmd_read, bar_cmd_write, ch};
			struct fake_pci_bar ctl = {4, true, bar_ctl_read, bar_ctl_write, ch};

			fake_pci_io_set_bar(ide->pci, (UINT8)(2 * c), &cmd);
			fake_pci_io_set_bar(ide->pci, (UINT8)(2 * c + 1), &ctl);
		}
	}
	if (!native)
		ide->pci->legacy_io =
		    (struct fake_pci_bar){0x10000, true, legacy_read, legacy_write, ide};
	return ide;
}

void fake_ide_destroy(struct fake_ide *ide)
{
	if (!ide)
		return;
	fake_pci_io_destroy(ide->pci);
	for (int c = 0; c < 2; c++)
		end_phase(&ide->channels[c]);
	free(ide);
}

static void put_string(UINT16 *words, const char *s, UINT32 count)
{
	for (UINT32 i = 0; i < count; i++) {
		char hi = *s ? *s++ : ' ';
		char lo = *s ? *s++ : ' ';
		words[i] = (UINT16)((UINT8)hi << 8 | (UINT8)lo);
	}
}

static struct fake_ide_drive *attach(struct fake_ide *ide, UINT8 channel, UINT8 drive,
				     enum fake_ide_kind kind, UINT8 *data, UINT64 sectors)
{
	struct fake_ide_drive *d = &ide->channels[channel].drives[drive];

	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->data = data;
	d->sectors = sectors;
	d->present = data != NULL;
	d->status = kind == FAKE_IDE_DISK ? ST_DRDY | ST_DSC : 0;
	signature(d);
	return d;
}

struct fake_ide_drive *fake_ide_attach_disk(struct fake_ide *ide, UINT8 channel, UINT8 drive,
					    UINT8 *data, UINT64 sectors)
{
	struct fake_ide_drive *d = attach(ide, channel, drive, FAKE_IDE_DISK, data, sectors);
	UINT16 *id = d->identify;

	id[0] = 0x0040;
	put_string(&id[27], "Ember Fake IDE Disk", 20);
	id[49] = 0x0200; /* LBA */
	id[60] = (UINT16)MIN(sectors, 0x0fffffffULL);
	id[61] = (UINT16)(MIN(sectors, 0x0fffffffULL) >> 16);
	id[83] = 0x4000 | 0x0400; /* 48-bit feature set */
	for (int i = 0; i < 4; i++)
		id[100 + i] = (UINT16)(sectors >> (16 * i));
	return d;
}

struct fake_ide_drive *fake_ide_attach_cd(struct fake_ide *ide, UINT8 channel, UINT8 drive,
					  UINT8 *data, UINT32 blocks)
{
	struct fake_ide_drive *d = attach(ide, channel, drive, FAKE_IDE_CD, data, blocks);

	d->identify[0] = 0x85c0; /* ATAPI, CD-ROM, removable, 12-byte packets */
	put_string(&d->identify[27], "Ember Fake IDE CD-ROM", 20);
	return d;
}

void fake_ide_change_cd(struct fake_ide_drive *d, UINT8 *data, UINT32 blocks)
{
	d->data = data;
	d->sectors = blocks;
	d->present = data != NULL;
	d->attention = true;
}
