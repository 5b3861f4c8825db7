/* SCSI commands (SPC-4, SBC-3, MMC-6) and the data devices answer with: sense data, INQUIRY,
 * REPORT LUNS, READ CAPACITY and the mode parameter header. The answers come from outside
 * (a device, a USB stick), so every parser is bounded by the length it was given and refuses
 * what does not hold together. Pure logic: no allocation, no UEFI calls, fuzzed
 * (tests/fuzz/fuzz_scsi_data.c). */
#ifndef DRIVERS_SCSI_DATA_H
#define DRIVERS_SCSI_DATA_H

#include <stdbool.h>
#include <efi/types.h>

#define SCSI_OP_TEST_UNIT_READY 0x00
#define SCSI_OP_REQUEST_SENSE 0x03
#define SCSI_OP_INQUIRY 0x12
#define SCSI_OP_MODE_SENSE_6 0x1a
#define SCSI_OP_READ_CAPACITY_10 0x25
#define SCSI_OP_READ_10 0x28
#define SCSI_OP_WRITE_10 0x2a
#define SCSI_OP_SYNCHRONIZE_CACHE_10 0x35
#define SCSI_OP_READ_16 0x88
#define SCSI_OP_WRITE_16 0x8a
#define SCSI_OP_SERVICE_ACTION_IN_16 0x9e
#define SCSI_SA_READ_CAPACITY_16 0x10
#define SCSI_OP_REPORT_LUNS 0xa0

#define SCSI_KEY_NO_SENSE 0x0
#define SCSI_KEY_RECOVERED_ERROR 0x1
#define SCSI_KEY_NOT_READY 0x2
#define SCSI_KEY_MEDIUM_ERROR 0x3
#define SCSI_KEY_HARDWARE_ERROR 0x4
#define SCSI_KEY_ILLEGAL_REQUEST 0x5
#define SCSI_KEY_UNIT_ATTENTION 0x6
#define SCSI_KEY_DATA_PROTECT 0x7
#define SCSI_KEY_ABORTED_COMMAND 0xb

#define SCSI_ASC_BECOMING_READY 0x04 /* with NOT READY: LUN not ready */
#define SCSI_ASC_WRITE_PROTECTED 0x27
#define SCSI_ASC_MEDIUM_CHANGED 0x28 /* not ready to ready change, medium may have changed */
#define SCSI_ASC_RESET 0x29	     /* power on, reset or bus device reset occurred */
#define SCSI_ASC_NO_MEDIUM 0x3a

/* Bytes asked for: room for any answer Ember reads. */
#define SCSI_SENSE_MAX 252
#define SCSI_INQUIRY_BYTES 96
#define SCSI_STANDARD_INQUIRY 36
#define SCSI_CAPACITY_10_BYTES 8
#define SCSI_CAPACITY_16_BYTES 32
#define SCSI_MODE_SENSE_BYTES 192

/* The peripheral qualifier of a LUN with a device attached. */
#define SCSI_QUALIFIER_CONNECTED 0

struct scsi_sense {
	UINT8 key;
	UINT8 asc; /* 0 when the data is too short to carry it */
	UINT8 ascq;
};

struct scsi_inquiry {
	UINT8 qualifier;			  /* peripheral qualifier (bits 7-5 of byte 0) */
	UINT8 type;				  /* peripheral device type (EFI_SCSI_IO_TYPE_*) */
	bool removable;				  /* RMB */
	char vendor[9], product[17], revision[5]; /* printable ASCII, spaces trimmed */
};

struct scsi_capacity {
	UINT64 last_lba;
	UINT32 block_size;
	UINT32 blocks_per_physical; /* 1 unless READ CAPACITY (16) says more */
	UINT64 lowest_aligned;
};

/* Sense data in fixed (0x70, 0x71) or descriptor (0x72, 0x73) format, len bytes of it.
 * false when it is neither or too short to hold a sense key. */
bool scsi_data_sense(const UINT8 *data, UINTN len, struct scsi_sense *sense);

/* Standard INQUIRY data. false when shorter than 5 bytes; the identification strings are
 * filled only when the data covers them (36 bytes), else left empty. */
bool scsi_data_inquiry(const UINT8 *data, UINTN len, struct scsi_inquiry *inquiry);

/* REPORT LUNS parameter data: the single-level LUNs (peripheral or flat addressing) no
 * greater than max_lun, each once, into luns (up to max entries); *count says how many.
 * false when the header is missing or the list length is not a multiple of 8. */
bool scsi_data_report_luns(const UINT8 *data, UINTN len, UINT16 max_lun, UINT16 *luns, UINTN max,
			   UINTN *count);

/* READ CAPACITY (10) and (16) parameter data. false for a short answer or a block size
 * Ember cannot use (a power of two from 512 to 64 KiB). */
bool scsi_data_capacity_10(const UINT8 *data, UINTN len, struct scsi_capacity *cap);
bool scsi_data_capacity_16(const UINT8 *data, UINTN len, struct scsi_capacity *cap);

/* The WP bit of a direct-access device's MODE SENSE (6) header; false when the header is
 * short or does not say so. */
bool scsi_data_write_protected(const UINT8 *data, UINTN len);

/* A READ or WRITE command for blocks blocks at lba: (10) when both fit, else (16). Returns
 * the CDB length. */
UINT8 scsi_cdb_read_write(UINT8 cdb[16], bool write, UINT64 lba, UINT32 blocks);

/* Big-endian fields of SCSI data. */
UINT32 scsi_be32(const UINT8 *p);
void scsi_put_be32(UINT8 *p, UINT32 value);

#endif
