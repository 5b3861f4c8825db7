/* The S3 record: what the reset stage restores on a wake from S3 before it jumps to the OS's
 * waking vector (reset/s3_resume.S reads it, chipset/s3_save.c writes it at
 * ExitBootServices, pure/s3_record.c builds and checks it). It lives in an area of
 * reserved memory below 1 MiB, so that the last step, in real mode, reaches it too.
 * Used from assembly and from C: numbers only. */
#ifndef QEMU_S3_H
#define QEMU_S3_H

/* The area: reserved in the memory map (tables/memory.c), hence in Linux's e820. The first
 * 16 bytes are scratch for the jump (outside the checksum, since every resume writes
 * them); the record follows. */
#define S3_AREA 0x9e000
#define S3_AREA_SIZE 0x2000
#define S3_FAR_POINTER 0 /* u16 offset, u16 segment */
#define S3_VECTOR_KIND 4 /* u32: 0 the real-mode vector, 1 the 32-bit one */
#define S3_RECORD_OFFSET 16
#define S3_RECORD (S3_AREA + S3_RECORD_OFFSET)
#define S3_RECORD_MAX (S3_AREA_SIZE - S3_RECORD_OFFSET)

/* Header fields (byte offsets). The 32-bit words of the whole record (header and entries)
 * sum to zero. */
#define S3_SIGNATURE 0 /* "EmberS3R" */
#define S3_LENGTH 8    /* bytes: header plus 16 per entry */
#define S3_CHECKSUM 12
#define S3_COUNT 16 /* entries */
#define S3_FACS 20  /* the FACS' address (below 4 GiB) */
#define S3_HEADER_SIZE 32
#define S3_SIGNATURE_LO 0x65626d45 /* "Embe" */
#define S3_SIGNATURE_HI 0x52335372 /* "rS3R" */

/* An entry: u32 kind, u32 target, u32 value low, u32 value high; replayed in order. */
#define S3_ENTRY_SIZE 16
#define S3_MAX_ENTRIES ((S3_RECORD_MAX - S3_HEADER_SIZE) / S3_ENTRY_SIZE)
#define S3_KIND_PCI 1  /* target: the 0xCF8 address; writes the 32-bit value at 0xCFC */
#define S3_KIND_MSR 2  /* target: the MSR; writes the 64-bit value */
#define S3_KIND_IO16 3 /* target: the I/O port; writes the low 16 bits */

/* QEMU's S3 signal: its RTC sets the CMOS shutdown status to 0xFE when the guest suspends
 * (the value PC BIOSes read as "S3 resume"); everything else in the machine is reset. */
#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define CMOS_SHUTDOWN_STATUS 0x0f
#define CMOS_S3_RESUME 0xfe

/* FACS fields (ACPI 6.5 section 5.2.10). */
#define FACS_SIGNATURE 0x53434146 /* "FACS" */
#define FACS_LENGTH 4
#define FACS_WAKING_VECTOR 12
#define FACS_X_WAKING_VECTOR 24
#define FACS_OSPM_FLAGS 36
#define FACS_64BIT_WAKE_F 1 /* OSPM flag: wake in 64-bit mode (not supported here) */
#define FACS_MIN_LENGTH 64

#endif
