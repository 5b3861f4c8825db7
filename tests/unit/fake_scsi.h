/* A SCSI target model for the tests of the SCSI drivers: logical units on targets, each a
 * disk or CD/DVD drive (SBC-3, MMC-6) over a byte array, answering TEST UNIT READY,
 * INQUIRY, REPORT LUNS, READ CAPACITY (10) and (16), READ and WRITE (10) and (16),
 * SYNCHRONIZE CACHE and MODE SENSE (6), with sense data (fixed or descriptor format) for
 * what goes wrong; faults to inject (unit attentions, a unit becoming ready, no medium, a
 * swapped medium, write protection, no REPORT LUNS). The transports of the tests carry it:
 * a fake pass-thru (fake_scsi_pass_thru.c) and the fake virtio-scsi device. */
#ifndef EMBER_TEST_FAKE_SCSI_H
#define EMBER_TEST_FAKE_SCSI_H

#include <stdbool.h>
#include <efi/types.h>

#define FAKE_SCSI_LUNS 8
/* What fake_scsi_execute returns for a target that is not there. */
#define FAKE_SCSI_NO_TARGET 0xff

struct fake_scsi_lu {
	bool present;
	UINT16 target, lun;
	UINT8 type; /* 0 disk, 5 CD/DVD */
	bool removable;
	UINT32 block_size;
	UINT64 blocks;
	bool loaded;   /* a medium is in */
	UINT8 seed;    /* its contents: fake_scsi_byte(seed, offset) ... */
	UINT8 *medium; /* ... kept here, or computed when it is too large to keep (writes are
			* then dropped) */
	bool write_protected;
	/* Faults: the next commands (not INQUIRY or REPORT LUNS) get this sense ... */
	UINTN sense_count;
	UINT8 sense_key, sense_asc;
	/* ... and TEST UNIT READY and transfers see a unit becoming ready this many times. */
	UINTN not_ready_count;
	/* What it was asked. */
	UINTN commands, reads, writes, syncs, cap10, cap16, report_luns, inquiries, turs;
	UINT32 last_transfer_blocks;
	UINT8 last_op; /* the opcode of the last command */
};

struct fake_scsi {
	struct fake_scsi_lu lus[FAKE_SCSI_LUNS];
	bool no_report_luns;	/* REPORT LUNS is an unknown command */
	bool empty_report_luns; /* REPORT LUNS answers an empty list */
	bool descriptor_sense;	/* sense data in descriptor format (0x72) */
};

/* Adds a logical unit of blocks blocks of block_size bytes, filled with fake_scsi_byte;
 * type 5 is a removable CD/DVD drive. The unit, or NULL when the model is full. */
struct fake_scsi_lu *fake_scsi_add(struct fake_scsi *s, UINT16 target, UINT16 lun, UINT8 type,
				   UINT32 block_size, UINT64 blocks);
/* A new medium in a removable unit (blocks 0: none), and the unit attention it causes. */
void fake_scsi_change_medium(struct fake_scsi_lu *lu, UINT64 blocks, UINT8 seed);
/* Frees the media. */
void fake_scsi_free(struct fake_scsi *s);

/* Byte n of a medium made with seed. */
UINT8 fake_scsi_byte(UINT8 seed, UINT64 n);

/* Runs one command: data out (out_len bytes) and data in (*in_len: room, then bytes
 * written); *sense_len: room for sense, then its length. Returns the SCSI status (0 GOOD,
 * 2 CHECK CONDITION) or FAKE_SCSI_NO_TARGET. */
UINT8 fake_scsi_execute(struct fake_scsi *s, UINT16 target, UINT16 lun, const UINT8 *cdb,
			UINT8 cdb_len, const UINT8 *out, UINT32 out_len, UINT8 *in, UINT32 *in_len,
			UINT8 *sense, UINT32 *sense_len);

#endif
