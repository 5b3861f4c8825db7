/* EFI_DISK_INFO_PROTOCOL (UEFI Platform Initialization 1.8, volume 5, "Disk Info Protocol"):
 * what a disk controller driver knows of a drive: its IDENTIFY or INQUIRY data, its sense
 * data and, for IDE and AHCI, where it sits. Interface names the bus, and so the format of
 * the data. */
#ifndef EFI_PROTOCOL_DISK_INFO_H
#define EFI_PROTOCOL_DISK_INFO_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_DISK_INFO_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0xd432a67f, 0x14dc, 0x484b, 0xb3, 0xbb, 0x3f, 0x02, 0x91, 0x84, 0x93, 0x27)

/* Interface values: IDENTIFY data of 512 bytes (IDE, AHCI), INQUIRY data (SCSI, USB). */
#define EFI_DISK_INFO_IDE_INTERFACE_GUID                                                           \
	EFI_GUID_INIT(0x5e948fe3, 0x26d3, 0x42b5, 0xaf, 0x17, 0x61, 0x02, 0x87, 0x18, 0x8d, 0xec)
#define EFI_DISK_INFO_AHCI_INTERFACE_GUID                                                          \
	EFI_GUID_INIT(0x9e498932, 0x4abc, 0x45af, 0xa3, 0x4d, 0x02, 0x47, 0x78, 0x7b, 0xe7, 0xc6)
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
