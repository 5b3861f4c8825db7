/* A reference PE32+ image for the PE tests and the fuzz corpus, laid out by byte offsets
 * written here from the PE/COFF specification (independently of core/image/pe_format.h),
 * and the offsets the tests use to break it in one place at a time.
 *
 * The image, linked for PEB_IMAGE_BASE, SizeOfImage 0x5000, entry point 0x1000:
 *   headers   file 0x000-0x200  RVA 0x0000
 *   .text     file 0x200-0x400  RVA 0x1000, VirtualSize 0x80 (the rest of its raw data
 *                               must not be loaded)
 *   .data     file 0x400-0x600  RVA 0x2000, VirtualSize 0x1800 (zero-filled past 0x200);
 *                               relocation targets at 0x2010 (DIR64), 0x2020 (HIGHLOW),
 *                               0x2030 (HIGH), 0x2034 (LOW); a debug directory at 0x2100
 *                               whose CodeView RSDS record at 0x2140 names PEB_PDB_NAME
 *   .reloc    file 0x600-0x800  RVA 0x4000, one block for page 0x2000 */
#ifndef EMBER_TEST_PE_BUILDER_H
#define EMBER_TEST_PE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#define PEB_FILE_SIZE 0x800
#define PEB_IMAGE_SIZE 0x5000
#define PEB_IMAGE_BASE 0x140000000ULL
#define PEB_PDB_NAME "C:\\ember\\reference.pdb"

/* Where things are in the file. */
#define PEB_LFANEW 0x3c
#define PEB_PE 0x80
#define PEB_FH (PEB_PE + 4) /* file header */
#define PEB_FH_MACHINE (PEB_FH + 0)
#define PEB_FH_SECTIONS (PEB_FH + 2)
#define PEB_FH_OPT_SIZE (PEB_FH + 16)
#define PEB_FH_CHARACTERISTICS (PEB_FH + 18)
#define PEB_OH (PEB_FH + 20) /* optional header */
#define PEB_OH_MAGIC (PEB_OH + 0)
#define PEB_OH_ENTRY (PEB_OH + 16)
#define PEB_OH_IMAGE_BASE (PEB_OH + 24)
#define PEB_OH_SECTION_ALIGN (PEB_OH + 32)
#define PEB_OH_FILE_ALIGN (PEB_OH + 36)
#define PEB_OH_SIZE_OF_IMAGE (PEB_OH + 56)
#define PEB_OH_SIZE_OF_HEADERS (PEB_OH + 60)
#define PEB_OH_SUBSYSTEM (PEB_OH + 68)
#define PEB_OH_DIR_COUNT (PEB_OH + 108)
#define PEB_OH_DIR(i) (PEB_OH + 112 + 8 * (i)) /* RVA, then size 4 bytes later */
#define PEB_SECTION(i) (PEB_OH + 240 + 40 * (i))
#define PEB_SEC_VSIZE 8
#define PEB_SEC_VADDR 12
#define PEB_SEC_RAW_SIZE 16
#define PEB_SEC_RAW_PTR 20

/* The relocation block, in the file and (at RVA 0x4000) in the image. */
#define PEB_RELOC_FILE 0x600
#define PEB_RELOC_RVA 0x4000
#define PEB_RELOC_SIZE 0x14

/* Values at the relocation targets before relocation. */
#define PEB_DIR64_RVA 0x2010
#define PEB_DIR64_VALUE (PEB_IMAGE_BASE + 0x1000)
#define PEB_HIGHLOW_RVA 0x2020
#define PEB_HIGHLOW_VALUE 0x40002000u
#define PEB_HIGH_RVA 0x2030
#define PEB_HIGH_VALUE 0x1234u
#define PEB_LOW_RVA 0x2034
#define PEB_LOW_VALUE 0xfff0u

/* Writes the reference image into buf. */
void peb_build(uint8_t buf[PEB_FILE_SIZE]);

/* Little-endian access to the builder's buffers and loaded images. */
void peb_put(uint8_t *buf, size_t offset, uint64_t value, int width);
uint64_t peb_get(const uint8_t *buf, size_t offset, int width);

/* The file offset of an RVA inside one of the reference image's sections. */
size_t peb_file_offset(uint32_t rva);

#endif
