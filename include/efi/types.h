/* Base types of the UEFI specification (2.10, section 2.3.1), on standard C types.
 * Only fixed-width types are used, so the same header serves LP64 (hosted, core)
 * and LLP64 (PE32+ applications built for the Windows target). */
#ifndef EFI_TYPES_H
#define EFI_TYPES_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && !defined(_WIN32)
#define EFIAPI __attribute__((ms_abi))
#else
#define EFIAPI
#endif

typedef uint8_t BOOLEAN;
typedef int64_t INTN;
typedef uint64_t UINTN;
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef char CHAR8;
typedef uint16_t CHAR16; /* UCS-2; Ember writes literals as u"..." */
typedef void VOID;

typedef UINTN EFI_STATUS;
typedef VOID *EFI_HANDLE;
typedef VOID *EFI_EVENT;
typedef UINT64 EFI_LBA;
typedef UINTN EFI_TPL;
typedef UINT64 EFI_PHYSICAL_ADDRESS;
typedef UINT64 EFI_VIRTUAL_ADDRESS;

#define TRUE ((BOOLEAN)1)
#define FALSE ((BOOLEAN)0)

/* The spec's parameter annotations carry no meaning for the compiler. */
#define IN
#define OUT
#define OPTIONAL
#define CONST const

typedef struct {
	UINT32 Data1;
	UINT16 Data2;
	UINT16 Data3;
	UINT8 Data4[8];
} EFI_GUID;

/* A GUID's initializer from its registry-format fields: Data1, Data2, Data3, then the
 * eight bytes of Data4 (8c8ce578-8a3d-4f1c-9935-896185c32dd3 is
 * EFI_GUID_INIT(0x8c8ce578, 0x8a3d, 0x4f1c, 0x99, 0x35, 0x89, 0x61, 0x85, 0xc3, 0x2d, 0xd3)). */
/* clang-format off */
#define EFI_GUID_INIT(d1, d2, d3, b0, b1, b2, b3, b4, b5, b6, b7) \
	{(d1), (d2), (d3), {(b0), (b1), (b2), (b3), (b4), (b5), (b6), (b7)}}
/* clang-format on */
_Static_assert(sizeof(EFI_GUID) == 16, "EFI_GUID layout");

typedef struct {
	UINT8 Addr[32];
} EFI_MAC_ADDRESS;

typedef struct {
	UINT8 Addr[4];
} EFI_IPv4_ADDRESS;

typedef struct {
	UINT8 Addr[16];
} EFI_IPv6_ADDRESS;

typedef union {
	UINT32 Addr[4];
	EFI_IPv4_ADDRESS v4;
	EFI_IPv6_ADDRESS v6;
} EFI_IP_ADDRESS;

/* Section 4.2 */
typedef struct {
	UINT64 Signature;
	UINT32 Revision;
	UINT32 HeaderSize;
	UINT32 CRC32;
	UINT32 Reserved;
} EFI_TABLE_HEADER;
_Static_assert(sizeof(EFI_TABLE_HEADER) == 24, "EFI_TABLE_HEADER layout");

#define EFI_2_100_SYSTEM_TABLE_REVISION ((2 << 16) | 100)
#define EFI_SPECIFICATION_VERSION EFI_2_100_SYSTEM_TABLE_REVISION

#endif
