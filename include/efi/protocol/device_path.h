/* EFI_DEVICE_PATH_PROTOCOL and the generic node layout (UEFI 2.10, chapter 10).
 * Node structures are packed: device paths are byte streams with no alignment. */
#ifndef EFI_PROTOCOL_DEVICE_PATH_H
#define EFI_PROTOCOL_DEVICE_PATH_H

#include <efi/types.h>

#define EFI_DEVICE_PATH_PROTOCOL_GUID                                                              \
	EFI_GUID_INIT(0x09576e91, 0x6d3f, 0x11d2, 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b)
#define EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID                                                 \
	EFI_GUID_INIT(0xbc62157e, 0x3e33, 0x4fec, 0x99, 0x20, 0x2d, 0x3b, 0x36, 0xd7, 0x50, 0xdf)

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

/* Vendor GUIDs with a defined meaning in device paths (10.3.4.x, 10.3.5.9, 18.3). */
#define EFI_PC_ANSI_GUID                                                                           \
	EFI_GUID_INIT(0xe0c14753, 0xf9be, 0x11d2, 0x9a, 0x0c, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)
#define EFI_VT_100_GUID                                                                            \
	EFI_GUID_INIT(0xdfa66065, 0xb419, 0x11d3, 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)
#define EFI_VT_100_PLUS_GUID                                                                       \
	EFI_GUID_INIT(0x7baec70b, 0x57e0, 0x4c76, 0x8e, 0x87, 0x2f, 0x9e, 0x28, 0x08, 0x83, 0x43)
#define EFI_VT_UTF8_GUID                                                                           \
	EFI_GUID_INIT(0xad15a0d6, 0x8bec, 0x4acf, 0xa0, 0x73, 0xd0, 0x1d, 0xe7, 0x7e, 0x2d, 0x88)
#define DEVICE_PATH_MESSAGING_UART_FLOW_CONTROL                                                    \
	EFI_GUID_INIT(0x37499a9d, 0x542f, 0x4c89, 0xa0, 0x26, 0x35, 0xda, 0x14, 0x20, 0x94, 0xe4)
#define EFI_SAS_DEVICE_PATH_GUID                                                                   \
	EFI_GUID_INIT(0xd487ddb4, 0x008b, 0x11d9, 0xaf, 0xdc, 0x00, 0x10, 0x83, 0xff, 0xca, 0x4d)
#define EFI_DEBUGPORT_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0xeba4e8d2, 0x3858, 0x41ec, 0xa2, 0x81, 0x26, 0x47, 0xba, 0x96, 0x60, 0xd0)
#define EFI_VIRTUAL_DISK_GUID                                                                      \
	EFI_GUID_INIT(0x77ab535a, 0x45fc, 0x624b, 0x55, 0x60, 0xf7, 0xb2, 0x81, 0xd1, 0xf9, 0x6e)
#define EFI_VIRTUAL_CD_GUID                                                                        \
	EFI_GUID_INIT(0x3d5abd30, 0x4175, 0x87ce, 0x6d, 0x64, 0xd2, 0xad, 0xe5, 0x23, 0xc4, 0xbb)
#define EFI_PERSISTENT_VIRTUAL_DISK_GUID                                                           \
	EFI_GUID_INIT(0x5cea02c9, 0x4d07, 0x69d3, 0x26, 0x9f, 0x44, 0x96, 0xfb, 0xe0, 0x96, 0xf9)
#define EFI_PERSISTENT_VIRTUAL_CD_GUID                                                             \
	EFI_GUID_INIT(0x08018188, 0x42cd, 0xbb48, 0x10, 0x0f, 0x53, 0x87, 0xd5, 0x3d, 0xed, 0x3d)

/* The compressed EISA ID of a PNP device (10.3.3): "PNP" in the low 16 bits. */
#define EFI_PNP_ID(id) ((UINT32)(((id) << 16) | 0x41d0))
#define EISA_PNP_ID(id) EFI_PNP_ID(id)

/* USB class codes with a text form of their own (10.6.1.6). */
#define USB_CLASS_AUDIO 1
#define USB_CLASS_CDCCONTROL 2
#define USB_CLASS_HID 3
#define USB_CLASS_IMAGE 6
#define USB_CLASS_PRINTER 7
#define USB_CLASS_MASS_STORAGE 8
#define USB_CLASS_HUB 9
#define USB_CLASS_CDCDATA 10
#define USB_CLASS_SMART_CARD 11
#define USB_CLASS_VIDEO 14
#define USB_CLASS_DIAGNOSTIC 220
#define USB_CLASS_WIRELESS 224
#define USB_CLASS_RESERVE 254
#define USB_SUBCLASS_FW_UPDATE 1
#define USB_SUBCLASS_IRDA_BRIDGE 2
#define USB_SUBCLASS_TEST 3

/* BBS device types (10.3.6) */
#define BBS_TYPE_FLOPPY 0x01
#define BBS_TYPE_HARDDRIVE 0x02
#define BBS_TYPE_CDROM 0x03
#define BBS_TYPE_PCMCIA 0x04
#define BBS_TYPE_USB 0x05
#define BBS_TYPE_EMBEDDED_NETWORK 0x06
#define BBS_TYPE_BEV 0x80
#define BBS_TYPE_UNKNOWN 0xff

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

/* ---- Further node layouts (added for device-path text conversion) ---- */

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 FunctionNumber;
} PCCARD_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 InterfaceType;
	UINT64 BaseAddress;
} BMC_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 NFITDeviceHandle;
} NVDIMM_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 Reserved;
	UINT64 WWN;
	UINT64 Lun;
} FIBRECHANNEL_DEVICE_PATH;

/* WWN and LUN are byte arrays, shown byte 0 first (SAM-4). */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 Reserved;
	UINT8 WWN[8];
	UINT8 Lun[8];
} FIBRECHANNELEX_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 Reserved;
	UINT64 Guid; /* an IEEE EUI-64, not an EFI_GUID */
} F1394_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 Tid;
} I2O_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 ResourceFlags;
	UINT8 PortGid[16];
	UINT64 ServiceId; /* IOC GUID or service ID, by ResourceFlags bit 0 */
	UINT64 TargetPortId;
	UINT64 DeviceId;
} INFINIBAND_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID Guid; /* DEVICE_PATH_MESSAGING_UART_FLOW_CONTROL */
	UINT32 FlowControlMap;
} UART_FLOW_CONTROL_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID Guid; /* EFI_SAS_DEVICE_PATH_GUID */
	UINT32 Reserved;
	UINT64 SasAddress;
	UINT64 Lun;
	UINT16 DeviceTopology;
	UINT16 RelativeTargetPort;
} SAS_DEVICE_PATH;

/* The layout deployed by EDK2 and OSes (24 bytes); the 2.10 table's offsets disagree. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 SasAddress[8];
	UINT8 Lun[8];
	UINT16 DeviceTopology;
	UINT16 RelativeTargetPort;
} SASEX_DEVICE_PATH;

/* The serial number (UTF-16, no terminator) follows. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 InterfaceNumber;
	UINT16 VendorId;
	UINT16 ProductId;
} USB_WWID_DEVICE_PATH;

/* The target name follows, NUL-terminated by convention. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT16 NetworkProtocol;
	UINT16 LoginOption;
	UINT8 Lun[8];
	UINT16 TargetPortalGroupTag;
} ISCSI_DEVICE_PATH;

#define ISCSI_LOGIN_OPTION_HEADER_DIGEST_CRC32C 0x0002
#define ISCSI_LOGIN_OPTION_DATA_DIGEST_CRC32C 0x0008
#define ISCSI_LOGIN_OPTION_AUTHMETHOD_NON 0x0800
#define ISCSI_LOGIN_OPTION_CHAP_UNI 0x1000

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 Pun;
	UINT8 Lun;
} UFS_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 SlotNumber;
} SD_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 SlotNumber;
} EMMC_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 Address[6];
} BLUETOOTH_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 Address[6];
	UINT8 AddressType;
} BLUETOOTH_LE_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 SSId[32];
} WIFI_DEVICE_PATH;

/* One or more EFI_IP_ADDRESS (16 bytes each) follow. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 IsIPv6;
} DNS_DEVICE_PATH;

typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID Uuid;
} NVDIMM_NAMESPACE_DEVICE_PATH;

/* For RestService 0xff a vendor GUID and vendor data follow. */
typedef struct {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 RESTService;
	UINT8 AccessMode;
} REST_SERVICE_DEVICE_PATH;

#define REST_SERVICE_VENDOR 0xff

#pragma pack(pop)

_Static_assert(sizeof(HARDDRIVE_DEVICE_PATH) == 42, "HD() node layout");
_Static_assert(sizeof(PCI_DEVICE_PATH) == 6, "Pci() node layout");
_Static_assert(sizeof(ACPI_HID_DEVICE_PATH) == 12, "Acpi() node layout");

_Static_assert(sizeof(PCCARD_DEVICE_PATH) == 5, "PcCard() node layout");
_Static_assert(sizeof(MEMMAP_DEVICE_PATH) == 24, "MemoryMapped() node layout");
_Static_assert(sizeof(CONTROLLER_DEVICE_PATH) == 8, "Ctrl() node layout");
_Static_assert(sizeof(BMC_DEVICE_PATH) == 13, "BMC() node layout");
_Static_assert(sizeof(VENDOR_DEVICE_PATH) == 20, "Ven*() node layout");
_Static_assert(sizeof(ACPI_EXTENDED_HID_DEVICE_PATH) == 16, "AcpiEx() node layout");
_Static_assert(sizeof(ACPI_ADR_DEVICE_PATH) == 8, "AcpiAdr() node layout");
_Static_assert(sizeof(NVDIMM_DEVICE_PATH) == 8, "NVDIMM node layout");
_Static_assert(sizeof(ATAPI_DEVICE_PATH) == 8, "Ata() node layout");
_Static_assert(sizeof(SCSI_DEVICE_PATH) == 8, "Scsi() node layout");
_Static_assert(sizeof(FIBRECHANNEL_DEVICE_PATH) == 24, "Fibre() node layout");
_Static_assert(sizeof(FIBRECHANNELEX_DEVICE_PATH) == 24, "FibreEx() node layout");
_Static_assert(sizeof(F1394_DEVICE_PATH) == 16, "I1394() node layout");
_Static_assert(sizeof(USB_DEVICE_PATH) == 6, "USB() node layout");
_Static_assert(sizeof(I2O_DEVICE_PATH) == 8, "I2O() node layout");
_Static_assert(sizeof(INFINIBAND_DEVICE_PATH) == 48, "Infiniband() node layout");
_Static_assert(sizeof(MAC_ADDR_DEVICE_PATH) == 37, "MAC() node layout");
_Static_assert(sizeof(IPv4_DEVICE_PATH) == 27, "IPv4() node layout");
_Static_assert(sizeof(IPv6_DEVICE_PATH) == 60, "IPv6() node layout");
_Static_assert(sizeof(UART_DEVICE_PATH) == 19, "Uart() node layout");
_Static_assert(sizeof(USB_CLASS_DEVICE_PATH) == 11, "UsbClass() node layout");
_Static_assert(sizeof(USB_WWID_DEVICE_PATH) == 10, "UsbWwid() node layout");
_Static_assert(sizeof(DEVICE_LOGICAL_UNIT_DEVICE_PATH) == 5, "Unit() node layout");
_Static_assert(sizeof(SATA_DEVICE_PATH) == 10, "Sata() node layout");
_Static_assert(sizeof(ISCSI_DEVICE_PATH) == 18, "iSCSI() node layout");
_Static_assert(sizeof(VLAN_DEVICE_PATH) == 6, "Vlan() node layout");
_Static_assert(sizeof(UART_FLOW_CONTROL_DEVICE_PATH) == 24, "UartFlowCtrl() node layout");
_Static_assert(sizeof(SAS_DEVICE_PATH) == 44, "SAS() node layout");
_Static_assert(sizeof(SASEX_DEVICE_PATH) == 24, "SasEx() node layout");
_Static_assert(sizeof(NVME_NAMESPACE_DEVICE_PATH) == 16, "NVMe() node layout");
_Static_assert(sizeof(UFS_DEVICE_PATH) == 6, "UFS() node layout");
_Static_assert(sizeof(SD_DEVICE_PATH) == 5, "SD() node layout");
_Static_assert(sizeof(EMMC_DEVICE_PATH) == 5, "eMMC() node layout");
_Static_assert(sizeof(BLUETOOTH_DEVICE_PATH) == 10, "Bluetooth() node layout");
_Static_assert(sizeof(BLUETOOTH_LE_DEVICE_PATH) == 11, "BluetoothLE() node layout");
_Static_assert(sizeof(WIFI_DEVICE_PATH) == 36, "Wi-Fi() node layout");
_Static_assert(sizeof(DNS_DEVICE_PATH) == 5, "Dns() node layout");
_Static_assert(sizeof(NVDIMM_NAMESPACE_DEVICE_PATH) == 20, "NVDIMM namespace node layout");
_Static_assert(sizeof(REST_SERVICE_DEVICE_PATH) == 6, "RestService() node layout");
_Static_assert(sizeof(CDROM_DEVICE_PATH) == 24, "CDROM() node layout");
_Static_assert(sizeof(MEDIA_PROTOCOL_DEVICE_PATH) == 20, "Media() node layout");
_Static_assert(sizeof(MEDIA_FW_VOL_DEVICE_PATH) == 20, "Fv() node layout");
_Static_assert(sizeof(MEDIA_FW_VOL_FILEPATH_DEVICE_PATH) == 20, "FvFile() node layout");
_Static_assert(sizeof(MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH) == 24, "Offset() node layout");
_Static_assert(sizeof(MEDIA_RAM_DISK_DEVICE_PATH) == 38, "RamDisk() node layout");
_Static_assert(sizeof(BBS_BBS_DEVICE_PATH) == 8, "BBS() node layout");
#endif
