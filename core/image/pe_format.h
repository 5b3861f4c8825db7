/* On-disk layout of PE32+ images (Microsoft PE/COFF specification), private to the
 * PE code in core/image/. Structures are only ever filled by pe_read() from checked
 * offsets, never overlaid on the input, so no alignment is assumed of it. */
#ifndef EMBER_PE_FORMAT_H
#define EMBER_PE_FORMAT_H

#include <stddef.h>
#include <ember/core/pe.h>
#include <ember/lib/str.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "PE fields are read in place");

#define IMAGE_DOS_SIGNATURE 0x5a4d    /* "MZ" */
#define IMAGE_DOS_LFANEW_OFFSET 0x3c  /* where the DOS header keeps the PE header offset */
#define IMAGE_NT_SIGNATURE 0x00004550 /* "PE\0\0" */
#define IMAGE_NT_OPTIONAL_HDR64_MAGIC 0x20b

#define IMAGE_NUMBEROF_DIRECTORY_ENTRIES 16
#define IMAGE_DIRECTORY_ENTRY_RESOURCE 2
#define IMAGE_DIRECTORY_ENTRY_BASERELOC 5
#define IMAGE_DIRECTORY_ENTRY_DEBUG 6

#define IMAGE_REL_BASED_ABSOLUTE 0
#define IMAGE_REL_BASED_HIGH 1
#define IMAGE_REL_BASED_LOW 2
#define IMAGE_REL_BASED_HIGHLOW 3
#define IMAGE_REL_BASED_DIR64 10

#define IMAGE_DEBUG_TYPE_CODEVIEW 2
#define CODEVIEW_SIGNATURE_RSDS SIGNATURE_32('R', 'S', 'D', 'S')
#define CODEVIEW_SIGNATURE_NB10 SIGNATURE_32('N', 'B', '1', '0')

typedef struct {
	UINT16 Machine;
	UINT16 NumberOfSections;
	UINT32 TimeDateStamp;
	UINT32 PointerToSymbolTable;
	UINT32 NumberOfSymbols;
	UINT16 SizeOfOptionalHeader;
	UINT16 Characteristics;
} IMAGE_FILE_HEADER;
_Static_assert(sizeof(IMAGE_FILE_HEADER) == 20, "IMAGE_FILE_HEADER layout");

typedef struct {
	UINT32 VirtualAddress;
	UINT32 Size;
} IMAGE_DATA_DIRECTORY;

typedef struct {
	UINT16 Magic;
	UINT8 MajorLinkerVersion;
	UINT8 MinorLinkerVersion;
	UINT32 SizeOfCode;
	UINT32 SizeOfInitializedData;
	UINT32 SizeOfUninitializedData;
	UINT32 AddressOfEntryPoint;
	UINT32 BaseOfCode;
	UINT64 ImageBase;
	UINT32 SectionAlignment;
	UINT32 FileAlignment;
	UINT16 MajorOperatingSystemVersion;
	UINT16 MinorOperatingSystemVersion;
	UINT16 MajorImageVersion;
	UINT16 MinorImageVersion;
	UINT16 MajorSubsystemVersion;
	UINT16 MinorSubsystemVersion;
	UINT32 Win32VersionValue;
	UINT32 SizeOfImage;
	UINT32 SizeOfHeaders;
	UINT32 CheckSum;
	UINT16 Subsystem;
	UINT16 DllCharacteristics;
	UINT64 SizeOfStackReserve;
	UINT64 SizeOfStackCommit;
	UINT64 SizeOfHeapReserve;
	UINT64 SizeOfHeapCommit;
	UINT32 LoaderFlags;
	UINT32 NumberOfRvaAndSizes;
	IMAGE_DATA_DIRECTORY DataDirectory[IMAGE_NUMBEROF_DIRECTORY_ENTRIES];
} IMAGE_OPTIONAL_HEADER64;
_Static_assert(offsetof(IMAGE_OPTIONAL_HEADER64, ImageBase) == 24, "ImageBase offset");
_Static_assert(offsetof(IMAGE_OPTIONAL_HEADER64, SizeOfImage) == 56, "SizeOfImage offset");
_Static_assert(offsetof(IMAGE_OPTIONAL_HEADER64, Subsystem) == 68, "Subsystem offset");
_Static_assert(offsetof(IMAGE_OPTIONAL_HEADER64, DataDirectory) == 112, "DataDirectory offset");
_Static_assert(sizeof(IMAGE_OPTIONAL_HEADER64) == 240, "IMAGE_OPTIONAL_HEADER64 layout");

/* Bytes from the "PE\0\0" signature to the optional header. */
#define PE_OPTIONAL_HEADER_OFFSET (4 + sizeof(IMAGE_FILE_HEADER))
/* The part of the optional header before the data directories. */
#define PE_OPTIONAL_HEADER_MIN offsetof(IMAGE_OPTIONAL_HEADER64, DataDirectory)

typedef struct {
	UINT8 Name[8];
	UINT32 VirtualSize;
	UINT32 VirtualAddress;
	UINT32 SizeOfRawData;
	UINT32 PointerToRawData;
	UINT32 PointerToRelocations;
	UINT32 PointerToLinenumbers;
	UINT16 NumberOfRelocations;
	UINT16 NumberOfLinenumbers;
	UINT32 Characteristics;
} IMAGE_SECTION_HEADER;
_Static_assert(sizeof(IMAGE_SECTION_HEADER) == 40, "IMAGE_SECTION_HEADER layout");

typedef struct {
	UINT32 Characteristics;
	UINT32 TimeDateStamp;
	UINT16 MajorVersion;
	UINT16 MinorVersion;
	UINT32 Type;
	UINT32 SizeOfData;
	UINT32 AddressOfRawData;
	UINT32 PointerToRawData;
} IMAGE_DEBUG_DIRECTORY;
_Static_assert(sizeof(IMAGE_DEBUG_DIRECTORY) == 28, "IMAGE_DEBUG_DIRECTORY layout");

/* A base relocation block: this header, then 16-bit entries (type << 12 | page offset). */
typedef struct {
	UINT32 VirtualAddress;
	UINT32 SizeOfBlock;
} IMAGE_BASE_RELOCATION;
_Static_assert(sizeof(IMAGE_BASE_RELOCATION) == 8, "IMAGE_BASE_RELOCATION layout");

/* The headers every PE32+ image starts with, as pe_read_headers() finds them. */
struct pe_headers {
	UINT32 pe_offset; /* of the "PE\0\0" signature */
	IMAGE_FILE_HEADER file;
	IMAGE_OPTIONAL_HEADER64 optional; /* directories past directory_count are zero */
	UINT32 directory_count;		  /* NumberOfRvaAndSizes, at most 16 */
};

/* Copies len bytes at offset off of a buffer of size bytes; false when they lie outside. */
static inline bool pe_read(const void *base, size_t size, UINT64 off, void *out, size_t len)
{
	if (off > size || len > size - off)
		return false;
	mem_copy(out, (const UINT8 *)base + off, len);
	return true;
}

/* Reads and checks the signatures, file header (X64 only) and optional header (PE32+)
 * of a file or loaded image. Machine-type reasons are formatted into reason_text. */
EFI_STATUS pe_read_headers(const void *base, size_t size, struct pe_headers *hdr,
			   char reason_text[PE_REASON_TEXT_SIZE], const char **reason);

/* The bytes a section occupies in the loaded image, and how many of them come from the
 * file: VirtualSize (or SizeOfRawData when it is 0), and the smaller of the two. */
static inline void pe_section_sizes(const IMAGE_SECTION_HEADER *sec, UINT32 *mem_size,
				    UINT32 *copy_size)
{
	*mem_size = sec->VirtualSize ? sec->VirtualSize : sec->SizeOfRawData;
	*copy_size = MIN(*mem_size, sec->SizeOfRawData);
}

/* Checks that a section lies inside SizeOfImage and its raw data inside the file. */
EFI_STATUS pe_check_section(const IMAGE_SECTION_HEADER *sec, size_t file_size, UINT32 size_of_image,
			    const char **reason);

#endif
