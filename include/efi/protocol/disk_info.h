/* EFI_DISK_INFO_PROTOCOL (UEFI PI 1.8, volume 5, section 12.6): what kind of disk a BlockIo
 * handle is, with the data its interface identifies it by. */
#ifndef EFI_PROTOCOL_DISK_INFO_H
#define EFI_PROTOCOL_DISK_INFO_H

#include <efi/types.h>

#define EFI_DISK_INFO_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0xd432a67f, 0x14dc, 0x484b, 0xb3, 0xbb, 0x3f, 0x02, 0x91, 0x84, 0x93, 0x27)

/* Interface: the device speaks NVM Express; Identify gives its Identify Namespace data. */
#define EFI_DISK_INFO_NVME_INTERFACE_GUID                                                          \
	EFI_GUID_INIT(0x3ab14680, 0x5d3f, 0x4a4d, 0xbc, 0xdc, 0xcc, 0x38, 0x00, 0x18, 0xc7, 0xf7)

typedef struct _EFI_DISK_INFO_PROTOCOL EFI_DISK_INFO_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_DISK_INFO_INQUIRY)(EFI_DISK_INFO_PROTOCOL *This, VOID *InquiryData,
						  UINT32 *InquiryDataSize);
typedef EFI_STATUS(EFIAPI *EFI_DISK_INFO_IDENTIFY)(EFI_DISK_INFO_PROTOCOL *This, VOID *IdentifyData,
						   UINT32 *IdentifyDataSize);
typedef EFI_STATUS(EFIAPI *EFI_DISK_INFO_SENSE_DATA)(EFI_DISK_INFO_PROTOCOL *This, VOID *SenseData,
						     UINT32 *SenseDataSize, UINT8 *SenseDataNumber);
typedef EFI_STATUS(EFIAPI *EFI_DISK_INFO_WHICH_IDE)(EFI_DISK_INFO_PROTOCOL *This,
						    UINT32 *IdeChannel, UINT32 *IdeDevice);

struct _EFI_DISK_INFO_PROTOCOL {
	EFI_GUID Interface;
	EFI_DISK_INFO_INQUIRY Inquiry;
	EFI_DISK_INFO_IDENTIFY Identify;
	EFI_DISK_INFO_SENSE_DATA SenseData;
	EFI_DISK_INFO_WHICH_IDE WhichIde;
};

_Static_assert(sizeof(EFI_DISK_INFO_PROTOCOL) == 48, "EFI_DISK_INFO_PROTOCOL layout");

#endif
