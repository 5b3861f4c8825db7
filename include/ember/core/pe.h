/* PE/COFF (PE32+) images: validating the headers of a file, laying it out in memory,
 * applying base relocations, and finding its CodeView debug name. Pure logic: no
 * allocation, no core calls; every offset and size taken from the input is checked, so
 * any bytes at all may be passed in. */
#ifndef EMBER_PE_H
#define EMBER_PE_H

#include <stdbool.h>
#include <efi/types.h>
#include <efi/status.h>

/* Machine types (PE/COFF "Machine Types"); only the firmware's own (ARCH_PE_MACHINE,
 * ember/lib/arch.h) are loaded. */
#define IMAGE_FILE_MACHINE_I386 0x014c
#define IMAGE_FILE_MACHINE_X64 0x8664
#define IMAGE_FILE_MACHINE_ARM64 0xaa64

/* Subsystems of EFI images (UEFI 2.10, section 2.1.1). */
#define EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION 10
#define EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER 11
#define EFI_IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER 12

/* FileHeader.Characteristics and OptionalHeader.DllCharacteristics bits Ember looks at. */
#define IMAGE_FILE_RELOCS_STRIPPED 0x0001
#define IMAGE_DLLCHARACTERISTICS_NX_COMPAT 0x0100

#define PE_REASON_TEXT_SIZE 48

/* What pe_parse() learns from a file's headers; every field has been validated. */
struct pe_image_info {
	UINT16 machine;		    /* IMAGE_FILE_MACHINE_X64 once parsed successfully */
	UINT16 subsystem;	    /* EFI_IMAGE_SUBSYSTEM_* */
	UINT16 characteristics;	    /* FileHeader.Characteristics */
	UINT16 dll_characteristics; /* OptionalHeader.DllCharacteristics */
	UINT16 number_of_sections;
	UINT64 image_base;	      /* the address the image was linked for */
	UINT32 size_of_image;	      /* bytes to allocate for the loaded image */
	UINT32 size_of_headers;	      /* headers copied to the start of the image */
	UINT32 entry_point_rva;	      /* inside the image, past the headers */
	UINT32 section_alignment;     /* power of two: the loaded image's alignment */
	UINT32 file_alignment;	      /* power of two, at most section_alignment */
	UINT32 pe_header_offset;      /* of the "PE\0\0" signature, in file and image */
	UINT32 section_table_offset;  /* inside the headers, in file and image */
	UINT32 reloc_rva, reloc_size; /* base relocation directory, 0 when absent */
	UINT32 debug_rva, debug_size; /* debug directory, 0 when absent or outside the image */
	bool relocs_stripped;	      /* IMAGE_FILE_RELOCS_STRIPPED */
	char reason_text[PE_REASON_TEXT_SIZE]; /* backs *reason for messages that carry a number */
};

/* Validates the headers and section table of a file image and fills *info. On failure
 * returns EFI_LOAD_ERROR (malformed, or not PE at all) or EFI_UNSUPPORTED (a valid PE for
 * another machine or subsystem) and points *reason at a short phrase, which is static or
 * lives in info->reason_text; the rest of *info is then meaningless. reason may be NULL,
 * here and below. */
EFI_STATUS pe_parse(const void *file, size_t file_size, struct pe_image_info *info,
		    const char **reason);

/* Lays out a file that pe_parse() accepted into dest (info->size_of_image bytes, zero-filled
 * here first): headers, then each section, zero-filling past its raw data. Then applies the
 * base relocations for load_address - image_base and records load_address as the loaded
 * image's ImageBase. Refuses to move an image whose relocations were stripped. dest needs
 * no alignment here; the caller aligns it to info->section_alignment. Reasons are static. */
EFI_STATUS pe_load(const void *file, size_t file_size, const struct pe_image_info *info, void *dest,
		   UINT64 load_address, const char **reason);

/* Applies the base relocation directory of a loaded image for a delta (new address minus
 * the address it is relocated for now). The whole directory is validated before anything
 * is written; relocations or blocks outside the image and unknown types are refused.
 * A delta of 0 only validates. */
EFI_STATUS pe_relocate(void *image, UINT32 image_size, UINT32 reloc_rva, UINT32 reloc_size,
		       UINT64 delta, const char **reason);

/* Section characteristics that decide how a loaded section is protected. */
#define IMAGE_SCN_CNT_CODE 0x00000020
#define IMAGE_SCN_MEM_EXECUTE 0x20000000
#define IMAGE_SCN_MEM_WRITE 0x80000000

/* Pages of a loaded image: [rva, rva + size), both multiples of 4 KiB. */
struct pe_range {
	UINT32 rva, size;
};

/* The code of a loaded image (info from pe_parse of its file), as page ranges to make
 * read-only and executable (all else in the image is to be non-executable): the number
 * of ranges put in code (at most max), or -1 when the image cannot be protected: its
 * SectionAlignment is not a multiple of 4 KiB, a section is both writable and executable,
 * or it has more code sections than max. */
int pe_code_ranges(const void *image, const struct pe_image_info *info, struct pe_range *code,
		   int max);

/* The PDB path from a loaded image's CodeView (RSDS or NB10) debug entry, or NULL when it
 * has none. The string lies inside the image. */
const char *pe_debug_name(const void *image, UINT32 image_size);

/* Where a loaded image's HII package list lies (UEFI 2.10, 7.4: the data of its resource
 * directory entry named "HII"): true with its RVA and size, both inside the image. The
 * list's own contents are for the HII checks. */
bool pe_hii_resource(const void *image, UINT32 image_size, UINT32 *rva, UINT32 *size);

#endif
