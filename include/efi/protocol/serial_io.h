/* EFI_SERIAL_IO_PROTOCOL (UEFI 2.10, section 12.8). */
#ifndef EFI_PROTOCOL_SERIAL_IO_H
#define EFI_PROTOCOL_SERIAL_IO_H

#include <efi/status.h>

#define EFI_SERIAL_IO_PROTOCOL_GUID                                                                \
	EFI_GUID_INIT(0xbb25cf6f, 0xf1d4, 0x11d2, 0x9a, 0x0c, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0xfd)

/* DeviceTypeGuid of a serial device that is a terminal (revision 1.1). */
#define EFI_SERIAL_TERMINAL_DEVICE_TYPE_GUID                                                       \
	EFI_GUID_INIT(0x6ad9a60f, 0x5815, 0x4c7c, 0x8a, 0x10, 0x50, 0x53, 0xd2, 0xbf, 0x7a, 0x1b)

#define EFI_SERIAL_IO_PROTOCOL_REVISION 0x00010000
#define EFI_SERIAL_IO_PROTOCOL_REVISION1p1 0x00010001

/* Control bits (SetControl sets the writable ones, GetControl reports all). */
#define EFI_SERIAL_CLEAR_TO_SEND 0x0010
#define EFI_SERIAL_DATA_SET_READY 0x0020
#define EFI_SERIAL_RING_INDICATE 0x0040
#define EFI_SERIAL_CARRIER_DETECT 0x0080
#define EFI_SERIAL_REQUEST_TO_SEND 0x0002
#define EFI_SERIAL_DATA_TERMINAL_READY 0x0001
#define EFI_SERIAL_INPUT_BUFFER_EMPTY 0x0100
#define EFI_SERIAL_OUTPUT_BUFFER_EMPTY 0x0200
#define EFI_SERIAL_HARDWARE_LOOPBACK_ENABLE 0x1000
#define EFI_SERIAL_SOFTWARE_LOOPBACK_ENABLE 0x2000
#define EFI_SERIAL_HARDWARE_FLOW_CONTROL_ENABLE 0x4000

typedef enum {
	DefaultParity,
	NoParity,
	EvenParity,
	OddParity,
	MarkParity,
	SpaceParity
} EFI_PARITY_TYPE;

typedef enum { DefaultStopBits, OneStopBit, OneFiveStopBits, TwoStopBits } EFI_STOP_BITS_TYPE;

typedef struct {
	UINT32 ControlMask;
	UINT32 Timeout; /* microseconds, per character */
	UINT64 BaudRate;
	UINT32 ReceiveFifoDepth;
	UINT32 DataBits;
	UINT32 Parity;
	UINT32 StopBits;
} EFI_SERIAL_IO_MODE;

/* The name earlier editions of the specification used. */
typedef EFI_SERIAL_IO_MODE SERIAL_IO_MODE;

typedef struct _EFI_SERIAL_IO_PROTOCOL EFI_SERIAL_IO_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_SERIAL_RESET)(EFI_SERIAL_IO_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_SERIAL_SET_ATTRIBUTES)(EFI_SERIAL_IO_PROTOCOL *This, UINT64 BaudRate,
						      UINT32 ReceiveFifoDepth, UINT32 Timeout,
						      EFI_PARITY_TYPE Parity, UINT8 DataBits,
						      EFI_STOP_BITS_TYPE StopBits);
typedef EFI_STATUS(EFIAPI *EFI_SERIAL_SET_CONTROL_BITS)(EFI_SERIAL_IO_PROTOCOL *This,
							UINT32 Control);
typedef EFI_STATUS(EFIAPI *EFI_SERIAL_GET_CONTROL_BITS)(EFI_SERIAL_IO_PROTOCOL *This,
							UINT32 *Control);
typedef EFI_STATUS(EFIAPI *EFI_SERIAL_WRITE)(EFI_SERIAL_IO_PROTOCOL *This, UINTN *BufferSize,
					     VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_SERIAL_READ)(EFI_SERIAL_IO_PROTOCOL *This, UINTN *BufferSize,
					    VOID *Buffer);

struct _EFI_SERIAL_IO_PROTOCOL {
	UINT32 Revision;
	EFI_SERIAL_RESET Reset;
	EFI_SERIAL_SET_ATTRIBUTES SetAttributes;
	EFI_SERIAL_SET_CONTROL_BITS SetControl;
	EFI_SERIAL_GET_CONTROL_BITS GetControl;
	EFI_SERIAL_WRITE Write;
	EFI_SERIAL_READ Read;
	EFI_SERIAL_IO_MODE *Mode;
	CONST EFI_GUID *DeviceTypeGuid; /* revision 1.1 and later */
};

_Static_assert(sizeof(EFI_SERIAL_IO_MODE) == 32, "SERIAL_IO_MODE layout");
_Static_assert(sizeof(EFI_SERIAL_IO_PROTOCOL) == 72, "EFI_SERIAL_IO_PROTOCOL layout");

#endif
