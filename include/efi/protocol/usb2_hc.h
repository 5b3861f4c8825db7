/* EFI_USB2_HC_PROTOCOL (UEFI 2.10, 17.1): a USB host controller, with the USB types the
 * host controller and the USB I/O protocols share (device requests, transfer results,
 * root hub port status). */
#ifndef EFI_PROTOCOL_USB2_HC_H
#define EFI_PROTOCOL_USB2_HC_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_USB2_HC_PROTOCOL_GUID                                                                  \
	EFI_GUID_INIT(0x3e745226, 0x9818, 0x45b6, 0xa2, 0xac, 0xd7, 0xcd, 0x0e, 0x8b, 0xa2, 0xbc)

typedef struct _EFI_USB2_HC_PROTOCOL EFI_USB2_HC_PROTOCOL;

#pragma pack(push, 1)
/* A SETUP packet (USB 2.0, 9.3). */
typedef struct {
	UINT8 RequestType;
	UINT8 Request;
	UINT16 Value;
	UINT16 Index;
	UINT16 Length;
} EFI_USB_DEVICE_REQUEST;
#pragma pack(pop)
_Static_assert(sizeof(EFI_USB_DEVICE_REQUEST) == 8, "EFI_USB_DEVICE_REQUEST layout");

typedef enum {
	EfiUsbDataIn,
	EfiUsbDataOut,
	EfiUsbNoData,
} EFI_USB_DATA_DIRECTION;

/* TransferResult bits. */
#define EFI_USB_NOERROR 0x00
#define EFI_USB_ERR_NOTEXECUTE 0x01
#define EFI_USB_ERR_STALL 0x02
#define EFI_USB_ERR_BUFFER 0x04
#define EFI_USB_ERR_BABBLE 0x08
#define EFI_USB_ERR_NAK 0x10
#define EFI_USB_ERR_CRC 0x20
#define EFI_USB_ERR_TIMEOUT 0x40
#define EFI_USB_ERR_BITSTUFF 0x80
#define EFI_USB_ERR_SYSTEM 0x100

typedef EFI_STATUS(EFIAPI *EFI_ASYNC_USB_TRANSFER_CALLBACK)(VOID *Data, UINTN DataLength,
							    VOID *Context, UINT32 Status);

#define EFI_USB_SPEED_FULL 0x0000
#define EFI_USB_SPEED_LOW 0x0001
#define EFI_USB_SPEED_HIGH 0x0002
#define EFI_USB_SPEED_SUPER 0x0003

#define EFI_USB_HC_RESET_GLOBAL 0x0001
#define EFI_USB_HC_RESET_HOST_CONTROLLER 0x0002
#define EFI_USB_HC_RESET_GLOBAL_WITH_DEBUG 0x0004
#define EFI_USB_HC_RESET_HOST_WITH_DEBUG 0x0008

#define EFI_USB_MAX_BULK_BUFFER_NUM 10
#define EFI_USB_MAX_ISO_BUFFER_NUM 7
#define EFI_USB_MAX_ISO_BUFFER_NUM1 2

typedef enum {
	EfiUsbHcStateHalt,
	EfiUsbHcStateOperational,
	EfiUsbHcStateSuspend,
	EfiUsbHcStateMaximum,
} EFI_USB_HC_STATE;

typedef struct {
	UINT8 TranslatorHubAddress;
	UINT8 TranslatorPortNumber;
} EFI_USB2_HC_TRANSACTION_TRANSLATOR;

typedef struct {
	UINT16 PortStatus;
	UINT16 PortChangeStatus;
} EFI_USB_PORT_STATUS;

#define USB_PORT_STAT_CONNECTION 0x0001
#define USB_PORT_STAT_ENABLE 0x0002
#define USB_PORT_STAT_SUSPEND 0x0004
#define USB_PORT_STAT_OVERCURRENT 0x0008
#define USB_PORT_STAT_RESET 0x0010
#define USB_PORT_STAT_POWER 0x0100
#define USB_PORT_STAT_LOW_SPEED 0x0200
#define USB_PORT_STAT_HIGH_SPEED 0x0400
#define USB_PORT_STAT_SUPER_SPEED 0x0800
#define USB_PORT_STAT_OWNER 0x2000

#define USB_PORT_STAT_C_CONNECTION 0x0001
#define USB_PORT_STAT_C_ENABLE 0x0002
#define USB_PORT_STAT_C_SUSPEND 0x0004
#define USB_PORT_STAT_C_OVERCURRENT 0x0008
#define USB_PORT_STAT_C_RESET 0x0010

typedef enum {
	EfiUsbPortEnable = 1,
	EfiUsbPortSuspend = 2,
	EfiUsbPortReset = 4,
	EfiUsbPortPower = 8,
	EfiUsbPortOwner = 13,
	EfiUsbPortConnectChange = 16,
	EfiUsbPortEnableChange = 17,
	EfiUsbPortSuspendChange = 18,
	EfiUsbPortOverCurrentChange = 19,
	EfiUsbPortResetChange = 20,
} EFI_USB_PORT_FEATURE;

typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_GET_CAPABILITY)(EFI_USB2_HC_PROTOCOL *This,
								UINT8 *MaxSpeed, UINT8 *PortNumber,
								UINT8 *Is64BitCapable);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_RESET)(EFI_USB2_HC_PROTOCOL *This,
						       UINT16 Attributes);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_GET_STATE)(EFI_USB2_HC_PROTOCOL *This,
							   EFI_USB_HC_STATE *State);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_SET_STATE)(EFI_USB2_HC_PROTOCOL *This,
							   EFI_USB_HC_STATE State);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_CONTROL_TRANSFER)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 DeviceAddress, UINT8 DeviceSpeed, UINTN MaximumPacketLength,
    EFI_USB_DEVICE_REQUEST *Request, EFI_USB_DATA_DIRECTION TransferDirection, VOID *Data,
    UINTN *DataLength, UINTN TimeOut, EFI_USB2_HC_TRANSACTION_TRANSLATOR *Translator,
    UINT32 *TransferResult);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_BULK_TRANSFER)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 DeviceAddress, UINT8 EndPointAddress, UINT8 DeviceSpeed,
    UINTN MaximumPacketLength, UINT8 DataBuffersNumber, VOID *Data[EFI_USB_MAX_BULK_BUFFER_NUM],
    UINTN *DataLength, UINT8 *DataToggle, UINTN TimeOut,
    EFI_USB2_HC_TRANSACTION_TRANSLATOR *Translator, UINT32 *TransferResult);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_ASYNC_INTERRUPT_TRANSFER)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 DeviceAddress, UINT8 EndPointAddress, UINT8 DeviceSpeed,
    UINTN MaxiumPacketLength, BOOLEAN IsNewTransfer, UINT8 *DataToggle, UINTN PollingInterval,
    UINTN DataLength, EFI_USB2_HC_TRANSACTION_TRANSLATOR *Translator,
    EFI_ASYNC_USB_TRANSFER_CALLBACK CallBackFunction, VOID *Context);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_SYNC_INTERRUPT_TRANSFER)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 DeviceAddress, UINT8 EndPointAddress, UINT8 DeviceSpeed,
    UINTN MaximumPacketLength, VOID *Data, UINTN *DataLength, UINT8 *DataToggle, UINTN TimeOut,
    EFI_USB2_HC_TRANSACTION_TRANSLATOR *Translator, UINT32 *TransferResult);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_ISOCHRONOUS_TRANSFER)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 DeviceAddress, UINT8 EndPointAddress, UINT8 DeviceSpeed,
    UINTN MaximumPacketLength, UINT8 DataBuffersNumber, VOID *Data[EFI_USB_MAX_ISO_BUFFER_NUM],
    UINTN DataLength, EFI_USB2_HC_TRANSACTION_TRANSLATOR *Translator, UINT32 *TransferResult);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_ASYNC_ISOCHRONOUS_TRANSFER)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 DeviceAddress, UINT8 EndPointAddress, UINT8 DeviceSpeed,
    UINTN MaximumPacketLength, UINT8 DataBuffersNumber, VOID *Data[EFI_USB_MAX_ISO_BUFFER_NUM],
    UINTN DataLength, EFI_USB2_HC_TRANSACTION_TRANSLATOR *Translator,
    EFI_ASYNC_USB_TRANSFER_CALLBACK IsochronousCallBack, VOID *Context);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_GET_ROOTHUB_PORT_STATUS)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 PortNumber, EFI_USB_PORT_STATUS *PortStatus);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_SET_ROOTHUB_PORT_FEATURE)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 PortNumber, EFI_USB_PORT_FEATURE PortFeature);
typedef EFI_STATUS(EFIAPI *EFI_USB2_HC_PROTOCOL_CLEAR_ROOTHUB_PORT_FEATURE)(
    EFI_USB2_HC_PROTOCOL *This, UINT8 PortNumber, EFI_USB_PORT_FEATURE PortFeature);

struct _EFI_USB2_HC_PROTOCOL {
	EFI_USB2_HC_PROTOCOL_GET_CAPABILITY GetCapability;
	EFI_USB2_HC_PROTOCOL_RESET Reset;
	EFI_USB2_HC_PROTOCOL_GET_STATE GetState;
	EFI_USB2_HC_PROTOCOL_SET_STATE SetState;
	EFI_USB2_HC_PROTOCOL_CONTROL_TRANSFER ControlTransfer;
	EFI_USB2_HC_PROTOCOL_BULK_TRANSFER BulkTransfer;
	EFI_USB2_HC_PROTOCOL_ASYNC_INTERRUPT_TRANSFER AsyncInterruptTransfer;
	EFI_USB2_HC_PROTOCOL_SYNC_INTERRUPT_TRANSFER SyncInterruptTransfer;
	EFI_USB2_HC_PROTOCOL_ISOCHRONOUS_TRANSFER IsochronousTransfer;
	EFI_USB2_HC_PROTOCOL_ASYNC_ISOCHRONOUS_TRANSFER AsyncIsochronousTransfer;
	EFI_USB2_HC_PROTOCOL_GET_ROOTHUB_PORT_STATUS GetRootHubPortStatus;
	EFI_USB2_HC_PROTOCOL_SET_ROOTHUB_PORT_FEATURE SetRootHubPortFeature;
	EFI_USB2_HC_PROTOCOL_CLEAR_ROOTHUB_PORT_FEATURE ClearRootHubPortFeature;
	UINT16 MajorRevision;
	UINT16 MinorRevision;
};
_Static_assert(sizeof(EFI_USB2_HC_PROTOCOL) == 13 * 8 + 8, "EFI_USB2_HC_PROTOCOL layout");

#endif
