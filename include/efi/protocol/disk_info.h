/* EFI_DISK_INFO_PROTOCOL (UEFI PI specification, volume 5, and UEFI 2.10's list of disk
 * interfaces): the raw identification data of a disk, by interface type. */
#ifndef EFI_PROTOCOL_DISK_INFO_H
#define EFI_PROTOCOL_DISK_INFO_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_DISK_INFO_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0xd432a67f, 0x14dc, 0x484b, 0xb3, 0xbb, 0x3f, 0x02, 0x91, 0x84, 0x93, 0x27)

/* Interface: what the data of Inquiry and Identify is. */
#define EFI_DISK_INFO_SCSI_INTERFACE_GUID                                                          \
	EFI_GUID_INIT(0x08f74baa, 0xea36, 0x41d9, 0x95, 0x21, 0x21, 0xa7, 0x0f, 0x87, 0x80, 0xbc)

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
