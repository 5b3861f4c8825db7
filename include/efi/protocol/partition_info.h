/* EFI_PARTITION_INFO_PROTOCOL (UEFI 2.10, section 13.18): on a partition's handle, the
 * partition table entry that describes it. */
#ifndef EFI_PROTOCOL_PARTITION_INFO_H
#define EFI_PROTOCOL_PARTITION_INFO_H

#include <efi/gpt.h>

#define EFI_PARTITION_INFO_PROTOCOL_GUID                                                           \
	EFI_GUID_INIT(0x8cf2f62c, 0xbc9b, 0x4821, 0x80, 0x8d, 0xec, 0x9e, 0xc4, 0x21, 0xa1, 0xa0)

#define EFI_PARTITION_INFO_PROTOCOL_REVISION 0x0001000

#define PARTITION_TYPE_OTHER 0x00
#define PARTITION_TYPE_MBR 0x01
#define PARTITION_TYPE_GPT 0x02

#pragma pack(1)
typedef struct {
	UINT32 Revision;
	UINT32 Type;  /* PARTITION_TYPE_* */
	UINT8 System; /* 1 for an EFI system partition */
	UINT8 Reserved[7];
	union {
		MBR_PARTITION_RECORD Mbr; /* Type == PARTITION_TYPE_MBR */
		EFI_PARTITION_ENTRY Gpt;  /* Type == PARTITION_TYPE_GPT */
	} Info;
} EFI_PARTITION_INFO_PROTOCOL;
#pragma pack()

_Static_assert(sizeof(EFI_PARTITION_INFO_PROTOCOL) == 144, "EFI_PARTITION_INFO_PROTOCOL layout");
_Static_assert(offsetof(EFI_PARTITION_INFO_PROTOCOL, Info) == 16,
	       "EFI_PARTITION_INFO_PROTOCOL layout");

#endif
