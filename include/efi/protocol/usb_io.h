/* EFI_USB_IO_PROTOCOL (UEFI 2.10, 17.2): one interface of a USB device, with the standard
 * descriptors (USB 2.0, 9.6) it hands out. */
#ifndef EFI_PROTOCOL_USB_IO_H
#define EFI_PROTOCOL_USB_IO_H

#include <efi/protocol/usb2_hc.h>

#define EFI_USB_IO_PROTOCOL_GUID                                                                   \
	EFI_GUID_INIT(0x2b2f68d6, 0x0cd2, 0x44cf, 0x8e, 0x8b, 0xbb, 0xa2, 0x0b, 0x1b, 0x5b, 0x75)

typedef struct _EFI_USB_IO_PROTOCOL EFI_USB_IO_PROTOCOL;

/* Descriptor types and standard requests (USB 2.0, tables 9-4 and 9-5). */
#define USB_DESC_TYPE_DEVICE 0x01
#define USB_DESC_TYPE_CONFIG 0x02
#define USB_DESC_TYPE_STRING 0x03
#define USB_DESC_TYPE_INTERFACE 0x04
#define USB_DESC_TYPE_ENDPOINT 0x05
#define USB_DESC_TYPE_HID 0x21
#define USB_DESC_TYPE_REPORT 0x22
#define USB_DESC_TYPE_HUB 0x29
#define USB_DESC_TYPE_HUB_SUPER_SPEED 0x2a

#define USB_REQ_GET_STATUS 0x00
#define USB_REQ_CLEAR_FEATURE 0x01
#define USB_REQ_SET_FEATURE 0x03
#define USB_REQ_SET_ADDRESS 0x05
#define USB_REQ_GET_DESCRIPTOR 0x06
#define USB_REQ_GET_CONFIG 0x08
#define USB_REQ_SET_CONFIG 0x09
#define USB_REQ_GET_INTERFACE 0x0a
#define USB_REQ_SET_INTERFACE 0x0b

/* bmRequestType: direction, type, recipient. */
#define USB_REQ_TYPE_DIR_IN 0x80
#define USB_REQ_TYPE_STANDARD 0x00
#define USB_REQ_TYPE_CLASS 0x20
#define USB_REQ_TYPE_VENDOR 0x40
#define USB_TARGET_DEVICE 0x00
#define USB_TARGET_INTERFACE 0x01
#define USB_TARGET_ENDPOINT 0x02
#define USB_TARGET_OTHER 0x03

#define USB_FEATURE_ENDPOINT_HALT 0

#define USB_ENDPOINT_DIR_IN 0x80
#define USB_ENDPOINT_TYPE_MASK 0x03
#define USB_ENDPOINT_CONTROL 0x00
#define USB_ENDPOINT_ISO 0x01
#define USB_ENDPOINT_BULK 0x02
#define USB_ENDPOINT_INTERRUPT 0x03

#pragma pack(push, 1)
typedef struct {
	UINT8 Length;
	UINT8 DescriptorType;
	UINT16 BcdUSB;
	UINT8 DeviceClass;
	UINT8 DeviceSubClass;
	UINT8 DeviceProtocol;
	UINT8 MaxPacketSize0;
	UINT16 IdVendor;
	UINT16 IdProduct;
	UINT16 BcdDevice;
	UINT8 StrManufacturer;
	UINT8 StrProduct;
	UINT8 StrSerialNumber;
	UINT8 NumConfigurations;
} EFI_USB_DEVICE_DESCRIPTOR;

typedef struct {
	UINT8 Length;
	UINT8 DescriptorType;
	UINT16 TotalLength;
	UINT8 NumInterfaces;
	UINT8 ConfigurationValue;
	UINT8 Configuration;
	UINT8 Attributes;
	UINT8 MaxPower;
} EFI_USB_CONFIG_DESCRIPTOR;

typedef struct {
	UINT8 Length;
	UINT8 DescriptorType;
	UINT8 InterfaceNumber;
	UINT8 AlternateSetting;
	UINT8 NumEndpoints;
	UINT8 InterfaceClass;
	UINT8 InterfaceSubClass;
	UINT8 InterfaceProtocol;
	UINT8 Interface;
} EFI_USB_INTERFACE_DESCRIPTOR;

typedef struct {
	UINT8 Length;
	UINT8 DescriptorType;
	UINT8 EndpointAddress;
	UINT8 Attributes;
	UINT16 MaxPacketSize;
	UINT8 Interval;
} EFI_USB_ENDPOINT_DESCRIPTOR;

typedef struct {
	UINT8 Length;
	UINT8 DescriptorType;
	CHAR16 String[1];
} EFI_USB_STRING_DESCRIPTOR;
#pragma pack(pop)
_Static_assert(sizeof(EFI_USB_DEVICE_DESCRIPTOR) == 18, "device descriptor layout");
_Static_assert(sizeof(EFI_USB_CONFIG_DESCRIPTOR) == 9, "config descriptor layout");
_Static_assert(sizeof(EFI_USB_INTERFACE_DESCRIPTOR) == 9, "interface descriptor layout");
_Static_assert(sizeof(EFI_USB_ENDPOINT_DESCRIPTOR) == 7, "endpoint descriptor layout");

typedef EFI_STATUS(EFIAPI *EFI_USB_IO_CONTROL_TRANSFER)(EFI_USB_IO_PROTOCOL *This,
							EFI_USB_DEVICE_REQUEST *Request,
							EFI_USB_DATA_DIRECTION Direction,
							UINT32 Timeout, VOID *Data,
							UINTN DataLength, UINT32 *Status);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_BULK_TRANSFER)(EFI_USB_IO_PROTOCOL *This,
						     UINT8 DeviceEndpoint, VOID *Data,
						     UINTN *DataLength, UINTN Timeout,
						     UINT32 *Status);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_ASYNC_INTERRUPT_TRANSFER)(
    EFI_USB_IO_PROTOCOL *This, UINT8 DeviceEndpoint, BOOLEAN IsNewTransfer, UINTN PollingInterval,
    UINTN DataLength, EFI_ASYNC_USB_TRANSFER_CALLBACK InterruptCallBack, VOID *Context);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_SYNC_INTERRUPT_TRANSFER)(EFI_USB_IO_PROTOCOL *This,
							       UINT8 DeviceEndpoint, VOID *Data,
							       UINTN *DataLength, UINTN Timeout,
							       UINT32 *Status);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_ISOCHRONOUS_TRANSFER)(EFI_USB_IO_PROTOCOL *This,
							    UINT8 DeviceEndpoint, VOID *Data,
							    UINTN DataLength, UINT32 *Status);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_ASYNC_ISOCHRONOUS_TRANSFER)(
    EFI_USB_IO_PROTOCOL *This, UINT8 DeviceEndpoint, VOID *Data, UINTN DataLength,
    EFI_ASYNC_USB_TRANSFER_CALLBACK IsochronousCallBack, VOID *Context);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_GET_DEVICE_DESCRIPTOR)(
    EFI_USB_IO_PROTOCOL *This, EFI_USB_DEVICE_DESCRIPTOR *DeviceDescriptor);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_GET_CONFIG_DESCRIPTOR)(
    EFI_USB_IO_PROTOCOL *This, EFI_USB_CONFIG_DESCRIPTOR *ConfigurationDescriptor);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_GET_INTERFACE_DESCRIPTOR)(
    EFI_USB_IO_PROTOCOL *This, EFI_USB_INTERFACE_DESCRIPTOR *InterfaceDescriptor);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_GET_ENDPOINT_DESCRIPTOR)(
    EFI_USB_IO_PROTOCOL *This, UINT8 EndpointIndex,
    EFI_USB_ENDPOINT_DESCRIPTOR *EndpointDescriptor);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_GET_STRING_DESCRIPTOR)(EFI_USB_IO_PROTOCOL *This,
							     UINT16 LangID, UINT8 StringID,
							     CHAR16 **String);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_GET_SUPPORTED_LANGUAGES)(EFI_USB_IO_PROTOCOL *This,
							       UINT16 **LangIDTable,
							       UINT16 *TableSize);
typedef EFI_STATUS(EFIAPI *EFI_USB_IO_PORT_RESET)(EFI_USB_IO_PROTOCOL *This);

struct _EFI_USB_IO_PROTOCOL {
	EFI_USB_IO_CONTROL_TRANSFER UsbControlTransfer;
	EFI_USB_IO_BULK_TRANSFER UsbBulkTransfer;
	EFI_USB_IO_ASYNC_INTERRUPT_TRANSFER UsbAsyncInterruptTransfer;
	EFI_USB_IO_SYNC_INTERRUPT_TRANSFER UsbSyncInterruptTransfer;
	EFI_USB_IO_ISOCHRONOUS_TRANSFER UsbIsochronousTransfer;
	EFI_USB_IO_ASYNC_ISOCHRONOUS_TRANSFER UsbAsyncIsochronousTransfer;
	EFI_USB_IO_GET_DEVICE_DESCRIPTOR UsbGetDeviceDescriptor;
	EFI_USB_IO_GET_CONFIG_DESCRIPTOR UsbGetConfigDescriptor;
	EFI_USB_IO_GET_INTERFACE_DESCRIPTOR UsbGetInterfaceDescriptor;
	EFI_USB_IO_GET_ENDPOINT_DESCRIPTOR UsbGetEndpointDescriptor;
	EFI_USB_IO_GET_STRING_DESCRIPTOR UsbGetStringDescriptor;
	EFI_USB_IO_GET_SUPPORTED_LANGUAGES UsbGetSupportedLanguages;
	EFI_USB_IO_PORT_RESET UsbPortReset;
};
_Static_assert(sizeof(EFI_USB_IO_PROTOCOL) == 13 * 8, "EFI_USB_IO_PROTOCOL layout");

#endif
