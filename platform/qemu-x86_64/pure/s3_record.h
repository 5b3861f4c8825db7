/* The S3 record (reset/s3.h) as C: built at ExitBootServices by chipset/s3_save.c, checked
 * on a wake by the reset stage (reset/s3_resume.S, which applies the same rules as
 * s3_record_valid). Pure logic on a buffer, shared by the firmware and its tests. */
#ifndef EMBER_S3_RECORD_H
#define EMBER_S3_RECORD_H

#include <stdbool.h>
#include <efi/types.h>
#include "../reset/s3.h"

struct s3_record_header {
	UINT32 signature[2]; /* S3_SIGNATURE_LO, S3_SIGNATURE_HI */
	UINT32 length;	     /* bytes: the header and count entries */
	UINT32 checksum;     /* makes the record's 32-bit words sum to zero */
	UINT32 count;	     /* entries after the header */
	UINT32 facs;	     /* the FACS' address */
	UINT32 reserved[2];
};

struct s3_record_entry {
	UINT32 kind;   /* S3_KIND_PCI, S3_KIND_MSR or S3_KIND_IO16 */
	UINT32 target; /* 0xCF8 address, MSR number or I/O port */
	UINT64 value;
};

/* A record being built in a buffer of capacity bytes. */
struct s3_record_builder {
	struct s3_record_header *header;
	UINT32 capacity;
	bool full; /* an entry did not fit: the record is not finished */
};

/* Starts an empty record (not yet valid) for the FACS at facs in buffer. */
void s3_record_begin(struct s3_record_builder *b, void *buffer, UINT32 capacity, UINT32 facs);

/* Appends an entry; false (and the builder marked full) when it does not fit. */
bool s3_record_add(struct s3_record_builder *b, UINT32 kind, UINT32 target, UINT64 value);

/* Seals the record with its length and checksum; false (the record left invalid) when an
 * entry did not fit. */
bool s3_record_finish(struct s3_record_builder *b);

/* Whether the size bytes at record hold a valid record (signature, entry count within
 * S3_MAX_ENTRIES, length, checksum) with a FACS address. */
bool s3_record_valid(const void *record, UINTN size);

/* The 0xCF8 address of a configuration register (dword-aligned offset below 256). */
#define S3_PCI_ADDRESS(bdf, offset) (0x80000000u | (UINT32)(bdf) << 8 | ((offset)&0xfc))

#endif
