/* EFI_DEVICE_PATH_PROTOCOL and the generic node layout (UEFI 2.10, chapter 10).
 * Node structures are packed: device paths are byte streams with no alignment. */
#ifndef EFI_PROTOCOL_DEVICE_PATH_H
#define EFI_PROTOCOL_DEVICE_PATH_H

#include <efi/types.h>

#define EFI_DEVICE_PATH_PROTOCOL_GUID \
	{0x09576e91, 0x6d3f, 0x11d2, {0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b}}
#define EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID \
	{0xbc62157e, 0x3e33, 0x4fec, {0x99, 0x20, 0x2d, 0x3b, 0x36, 0xd7, 0x50, 0xdf}}

typedef struct {
	UINT8 Type;
	UINT8 SubType;
	UINT8 Length[2];
} EFI_DEVICE_PATH_PROTOCOL;

/* Node types (10.3.1) */
#define HARDWARE_DEVICE_PATH 0x01
#define ACPI_DEVICE_PATH 0x02
#define MESSAGING_DEVICE_PATH 0x03
#define MEDIA_DEVICE_PATH 0x04
#define BBS_DEVICE_PATH 0x05
#define END_DEVICE_PATH_TYPE 0x7f

#define END_ENTIRE_DEVICE_PATH_SUBTYPE 0xff
#define END_INSTANCE_DEVICE_PATH_SUBTYPE 0x01

/* Hardware subtypes (10.3.2) */
#define HW_PCI_DP 0x01
#define HW_PCCARD_DP 0x02
#define HW_MEMMAP_DP 0x03
#define HW_VENDOR_DP 0x04
#define HW_CONTROLLER_DP 0x05
#define HW_BMC_DP 0x06

/* ACPI subtypes (10.3.3) */
#define ACPI_DP 0x01
#define ACPI_EXTENDED_DP 0x02
#define ACPI_ADR_DP 0x03
#define ACPI_NVDIMM_DP 0x04

/* Messaging subtypes (10.3.4) */
#define MSG_ATAPI_DP 0x01
#define MSG_SCSI_DP 0x02
#define MSG_FIBRECHANNEL_DP 0x03
#define MSG_1394_DP 0x04
#define MSG_USB_DP 0x05
#define MSG_I2O_DP 0x06
#define MSG_INFINIBAND_DP 0x09
#define MSG_VENDOR_DP 0x0a
#define MSG_MAC_ADDR_DP 0x0b
#define MSG_IPv4_DP 0x0c
#define MSG_IPv6_DP 0x0d
#define MSG_UART_DP 0x0e
#define MSG_USB_CLASS_DP 0x0f
#define MSG_USB_WWID_DP 0x10
#define MSG_DEVICE_LOGICAL_UNIT_DP 0x11
#define MSG_SATA_DP 0x12
#define MSG_ISCSI_DP 0x13
#define MSG_VLAN_DP 0x14
#define MSG_FIBRECHANNELEX_DP 0x15
#define MSG_SASEX_DP 0x16
#define MSG_NVME_NAMESPACE_DP 0x17
#define MSG_URI_DP 0x18
#define MSG_UFS_DP 0x19
#define MSG_SD_DP 0x1a
#define MSG_BLUETOOTH_DP 0x1b
#define MSG_WIFI_DP 0x1c
#define MSG_EMMC_DP 0x1d
#define MSG_BLUETOOTH_LE_DP 0x1e
#define MSG_DNS_DP 0x1f
#define MSG_NVDIMM_NAMESPACE_DP 0x20
#define MSG_REST_SERVICE_DP 0x21
#define MSG_NVMEOF_NAMESPACE_DP 0x22

/* Media subtypes (10.3.5) */
#define MEDIA_HARDDRIVE_DP 0x01
#define MEDIA_CDROM_DP 0x02
#define MEDIA_VENDOR_DP 0x03
#define MEDIA_FILEPATH_DP 0x04
#define MEDIA_PROTOCOL_DP 0x05
#define MEDIA_PIWG_FW_FILE_DP 0x06
#define MEDIA_PIWG_FW_VOL_DP 0x07
#define MEDIA_RELATIVE_OFFSET_RANGE_DP 0x08
#define MEDIA_RAM_DISK_DP 0x09

/* BBS subtype (10.3.6) */
#define BBS_BBS_DP 0x01

#pragma pack(push, 1)

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 Function;
	UINT8 Device;
} PCI_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 MemoryType;
	EFI_PHYSICAL_ADDRESS StartingAddress;
	EFI_PHYSICAL_ADDRESS EndingAddress;
} MEMMAP_DEVICE_PATH;

/* Used for hardware, messaging and media vendor nodes; vendor data follows. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID Guid;
} VENDOR_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 ControllerNumber;
} CONTROLLER_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 HID;
	UINT32 UID;
} ACPI_HID_DEVICE_PATH;

/* Three NUL-terminated strings (HIDSTR, UIDSTR, CIDSTR) follow. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 HID;
	UINT32 UID;
	UINT32 CID;
} ACPI_EXTENDED_HID_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 ADR; /* further _ADR values may follow */
} ACPI_ADR_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 PrimarySecondary;
	UINT8 SlaveMaster;
	UINT16 Lun;
} ATAPI_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 Pun;
	UINT16 Lun;
} SCSI_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 ParentPortNumber;
	UINT8 InterfaceNumber;
} USB_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 VendorId;
	UINT16 ProductId;
	UINT8 DeviceClass;
	UINT8 DeviceSubClass;
	UINT8 DeviceProtocol;
} USB_CLASS_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_MAC_ADDRESS MacAddress;
	UINT8 IfType;
} MAC_ADDR_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_IPv4_ADDRESS LocalIpAddress;
	EFI_IPv4_ADDRESS RemoteIpAddress;
	UINT16 LocalPort;
	UINT16 RemotePort;
	UINT16 Protocol;
	BOOLEAN StaticIpAddress;
	EFI_IPv4_ADDRESS GatewayIpAddress;
	EFI_IPv4_ADDRESS SubnetMask;
} IPv4_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_IPv6_ADDRESS LocalIpAddress;
	EFI_IPv6_ADDRESS RemoteIpAddress;
	UINT16 LocalPort;
	UINT16 RemotePort;
	UINT16 Protocol;
	UINT8 IpAddressOrigin;
	UINT8 PrefixLength;
	EFI_IPv6_ADDRESS GatewayIpAddress;
} IPv6_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 Reserved;
	UINT64 BaudRate;
	UINT8 DataBits;
	UINT8 Parity;
	UINT8 StopBits;
} UART_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 HBAPortNumber;
	UINT16 PortMultiplierPortNumber;
	UINT16 Lun;
} SATA_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 NamespaceId;
	UINT64 NamespaceUuid;
} NVME_NAMESPACE_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 VlanId;
} VLAN_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 Lun;
} DEVICE_LOGICAL_UNIT_DEVICE_PATH;

/* The URI follows as CHAR8 without a terminator. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
} URI_DEVICE_PATH;

#define MBR_TYPE_PCAT 0x01
#define MBR_TYPE_EFI_PARTITION_TABLE_HEADER 0x02
#define NO_DISK_SIGNATURE 0x00
#define SIGNATURE_TYPE_MBR 0x01
#define SIGNATURE_TYPE_GUID 0x02

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 PartitionNumber;
	UINT64 PartitionStart;
	UINT64 PartitionSize;
	UINT8 Signature[16];
	UINT8 MBRType;
	UINT8 SignatureType;
} HARDDRIVE_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 BootEntry;
	UINT64 PartitionStart;
	UINT64 PartitionSize;
} CDROM_DEVICE_PATH;

/* A NUL-terminated UCS-2 path follows; it is not aligned. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	CHAR16 PathName[];
} FILEPATH_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID Protocol;
} MEDIA_PROTOCOL_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID FvFileName;
} MEDIA_FW_VOL_FILEPATH_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID FvName;
} MEDIA_FW_VOL_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 Reserved;
	UINT64 StartingOffset;
	UINT64 EndingOffset;
} MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT64 StartingAddr;
	UINT64 EndingAddr;
	EFI_GUID TypeGuid;
	UINT16 Instance;
} MEDIA_RAM_DISK_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 DeviceType;
	UINT16 StatusFlag;
	CHAR8 String[];
} BBS_BBS_DEVICE_PATH;

#pragma pack(pop)

_Static_assert(sizeof(HARDDRIVE_DEVICE_PATH) == 42, "HD() node layout");
_Static_assert(sizeof(PCI_DEVICE_PATH) == 6, "Pci() node layout");
_Static_assert(sizeof(ACPI_HID_DEVICE_PATH) == 12, "Acpi() node layout");

#endif
