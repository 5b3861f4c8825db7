/* EFI_PCI_IO_PROTOCOL (UEFI 2.10, section 14.4). */
#ifndef EFI_PROTOCOL_PCI_IO_H
#define EFI_PROTOCOL_PCI_IO_H

#include <efi/boot_services.h>
#include <efi/acpi_resource.h>

#define EFI_PCI_IO_PROTOCOL_GUID                                                                   \
	EFI_GUID_INIT(0x4cf5b200, 0x68b8, 0x4ca5, 0x9e, 0xec, 0xb2, 0x3e, 0x3f, 0x50, 0x02, 0x9a)

typedef struct _EFI_PCI_IO_PROTOCOL EFI_PCI_IO_PROTOCOL;

typedef enum {
	EfiPciIoWidthUint8,
	EfiPciIoWidthUint16,
	EfiPciIoWidthUint32,
	EfiPciIoWidthUint64,
	EfiPciIoWidthFifoUint8,
	EfiPciIoWidthFifoUint16,
	EfiPciIoWidthFifoUint32,
	EfiPciIoWidthFifoUint64,
	EfiPciIoWidthFillUint8,
	EfiPciIoWidthFillUint16,
	EfiPciIoWidthFillUint32,
	EfiPciIoWidthFillUint64,
	EfiPciIoWidthMaximum
} EFI_PCI_IO_PROTOCOL_WIDTH;

/* BarIndex that passes the cycle through unchanged: Offset is an absolute address. */
#define EFI_PCI_IO_PASS_THROUGH_BAR 0xff

typedef enum {
	EfiPciIoOperationBusMasterRead,
	EfiPciIoOperationBusMasterWrite,
	EfiPciIoOperationBusMasterCommonBuffer,
	EfiPciIoOperationMaximum
} EFI_PCI_IO_PROTOCOL_OPERATION;

typedef enum {
	EfiPciIoAttributeOperationGet,
	EfiPciIoAttributeOperationSet,
	EfiPciIoAttributeOperationEnable,
	EfiPciIoAttributeOperationDisable,
	EfiPciIoAttributeOperationSupported,
	EfiPciIoAttributeOperationMaximum
} EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION;

/* Attributes */
#define EFI_PCI_IO_ATTRIBUTE_ISA_MOTHERBOARD_IO 0x0001
#define EFI_PCI_IO_ATTRIBUTE_ISA_IO 0x0002
#define EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO 0x0004
#define EFI_PCI_IO_ATTRIBUTE_VGA_MEMORY 0x0008
#define EFI_PCI_IO_ATTRIBUTE_VGA_IO 0x0010
#define EFI_PCI_IO_ATTRIBUTE_IDE_PRIMARY_IO 0x0020
#define EFI_PCI_IO_ATTRIBUTE_IDE_SECONDARY_IO 0x0040
#define EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE 0x0080
#define EFI_PCI_IO_ATTRIBUTE_IO 0x0100
#define EFI_PCI_IO_ATTRIBUTE_MEMORY 0x0200
#define EFI_PCI_IO_ATTRIBUTE_BUS_MASTER 0x0400
#define EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED 0x0800
#define EFI_PCI_IO_ATTRIBUTE_MEMORY_DISABLE 0x1000
#define EFI_PCI_IO_ATTRIBUTE_EMBEDDED_DEVICE 0x2000
#define EFI_PCI_IO_ATTRIBUTE_EMBEDDED_ROM 0x4000
#define EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE 0x8000
#define EFI_PCI_IO_ATTRIBUTE_ISA_IO_16 0x10000
#define EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO_16 0x20000
#define EFI_PCI_IO_ATTRIBUTE_VGA_IO_16 0x40000

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_POLL_IO_MEM)(EFI_PCI_IO_PROTOCOL *This,
							    EFI_PCI_IO_PROTOCOL_WIDTH Width,
							    UINT8 BarIndex, UINT64 Offset,
							    UINT64 Mask, UINT64 Value, UINT64 Delay,
							    UINT64 *Result);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_IO_MEM)(EFI_PCI_IO_PROTOCOL *This,
						       EFI_PCI_IO_PROTOCOL_WIDTH Width,
						       UINT8 BarIndex, UINT64 Offset, UINTN Count,
						       VOID *Buffer);

typedef struct {
	EFI_PCI_IO_PROTOCOL_IO_MEM Read;
	EFI_PCI_IO_PROTOCOL_IO_MEM Write;
} EFI_PCI_IO_PROTOCOL_ACCESS;

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_CONFIG)(EFI_PCI_IO_PROTOCOL *This,
						       EFI_PCI_IO_PROTOCOL_WIDTH Width,
						       UINT32 Offset, UINTN Count, VOID *Buffer);

typedef struct {
	EFI_PCI_IO_PROTOCOL_CONFIG Read;
	EFI_PCI_IO_PROTOCOL_CONFIG Write;
} EFI_PCI_IO_PROTOCOL_CONFIG_ACCESS;

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_COPY_MEM)(EFI_PCI_IO_PROTOCOL *This,
							 EFI_PCI_IO_PROTOCOL_WIDTH Width,
							 UINT8 DestBarIndex, UINT64 DestOffset,
							 UINT8 SrcBarIndex, UINT64 SrcOffset,
							 UINTN Count);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_MAP)(EFI_PCI_IO_PROTOCOL *This,
						    EFI_PCI_IO_PROTOCOL_OPERATION Operation,
						    VOID *HostAddress, UINTN *NumberOfBytes,
						    EFI_PHYSICAL_ADDRESS *DeviceAddress,
						    VOID **Mapping);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_UNMAP)(EFI_PCI_IO_PROTOCOL *This, VOID *Mapping);

/* Attributes: only MEMORY_WRITE_COMBINE and MEMORY_CACHED are valid; the buffer may lie above
 * 4 GiB only when the device has DUAL_ADDRESS_CYCLE enabled. */
typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_ALLOCATE_BUFFER)(EFI_PCI_IO_PROTOCOL *This,
								EFI_ALLOCATE_TYPE Type,
								EFI_MEMORY_TYPE MemoryType,
								UINTN Pages, VOID **HostAddress,
								UINT64 Attributes);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_FREE_BUFFER)(EFI_PCI_IO_PROTOCOL *This, UINTN Pages,
							    VOID *HostAddress);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_FLUSH)(EFI_PCI_IO_PROTOCOL *This);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_GET_LOCATION)(EFI_PCI_IO_PROTOCOL *This,
							     UINTN *SegmentNumber, UINTN *BusNumber,
							     UINTN *DeviceNumber,
							     UINTN *FunctionNumber);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_ATTRIBUTES)(
    EFI_PCI_IO_PROTOCOL *This, EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION Operation, UINT64 Attributes,
    UINT64 *Result);

/* Resources receives a pool buffer (EfiBootServicesData) of EFI_ACPI_ADDRESS_SPACE_DESCRIPTORs
 * ended by an EFI_ACPI_END_TAG_DESCRIPTOR; the caller frees it with FreePool. */
typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_GET_BAR_ATTRIBUTES)(EFI_PCI_IO_PROTOCOL *This,
								   UINT8 BarIndex, UINT64 *Supports,
								   VOID **Resources);

typedef EFI_STATUS(EFIAPI *EFI_PCI_IO_PROTOCOL_SET_BAR_ATTRIBUTES)(EFI_PCI_IO_PROTOCOL *This,
								   UINT64 Attributes,
								   UINT8 BarIndex, UINT64 *Offset,
								   UINT64 *Length);

struct _EFI_PCI_IO_PROTOCOL {
	EFI_PCI_IO_PROTOCOL_POLL_IO_MEM PollMem;
	EFI_PCI_IO_PROTOCOL_POLL_IO_MEM PollIo;
	EFI_PCI_IO_PROTOCOL_ACCESS Mem;
	EFI_PCI_IO_PROTOCOL_ACCESS Io;
	EFI_PCI_IO_PROTOCOL_CONFIG_ACCESS Pci;
	EFI_PCI_IO_PROTOCOL_COPY_MEM CopyMem;
	EFI_PCI_IO_PROTOCOL_MAP Map;
	EFI_PCI_IO_PROTOCOL_UNMAP Unmap;
	EFI_PCI_IO_PROTOCOL_ALLOCATE_BUFFER AllocateBuffer;
	EFI_PCI_IO_PROTOCOL_FREE_BUFFER FreeBuffer;
	EFI_PCI_IO_PROTOCOL_FLUSH Flush;
	EFI_PCI_IO_PROTOCOL_GET_LOCATION GetLocation;
	EFI_PCI_IO_PROTOCOL_ATTRIBUTES Attributes;
	EFI_PCI_IO_PROTOCOL_GET_BAR_ATTRIBUTES GetBarAttributes;
	EFI_PCI_IO_PROTOCOL_SET_BAR_ATTRIBUTES SetBarAttributes;
	UINT64 RomSize;
	VOID *RomImage;
};

_Static_assert(sizeof(EFI_PCI_IO_PROTOCOL_WIDTH) == 4, "enum width");
_Static_assert(offsetof(EFI_PCI_IO_PROTOCOL, Mem) == 16, "PCI I/O layout");
_Static_assert(offsetof(EFI_PCI_IO_PROTOCOL, CopyMem) == 64, "PCI I/O layout");
_Static_assert(offsetof(EFI_PCI_IO_PROTOCOL, GetLocation) == 112, "PCI I/O layout");
_Static_assert(offsetof(EFI_PCI_IO_PROTOCOL, RomSize) == 144, "PCI I/O layout");
_Static_assert(sizeof(EFI_PCI_IO_PROTOCOL) == 160, "PCI I/O layout");

#endif
