/* EFI_DT_FIXUP_PROTOCOL (EBBR; defined by U-Boot): the firmware's fix-ups applied to a
 * device tree a boot program brings, the tree's memory reservations made in the UEFI memory
 * map, and the tree installed as the DTB configuration table. */
#ifndef EFI_PROTOCOL_DT_FIXUP_H
#define EFI_PROTOCOL_DT_FIXUP_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_DT_FIXUP_PROTOCOL_GUID                                                                 \
	EFI_GUID_INIT(0xe617d64c, 0xfe08, 0x46da, 0xf4, 0xdc, 0xbb, 0xd5, 0x87, 0x0c, 0x73, 0x00)
#define EFI_DT_FIXUP_PROTOCOL_REVISION 0x00010000

/* Flags of Fixup. */
#define EFI_DT_APPLY_FIXUPS 0x00000001	 /* add nodes and update properties */
#define EFI_DT_RESERVE_MEMORY 0x00000002 /* the tree's reservations in the memory map */
#define EFI_DT_INSTALL_TABLE 0x00000004	 /* the tree as the DTB configuration table */

typedef struct _EFI_DT_FIXUP_PROTOCOL EFI_DT_FIXUP_PROTOCOL;

/* Fdt: the tree, in a buffer of *BufferSize bytes. EFI_BUFFER_TOO_SMALL: *BufferSize now
 * says what the fixed-up tree needs; EFI_INVALID_PARAMETER: no tree, or bad arguments. */
typedef EFI_STATUS(EFIAPI *EFI_DT_FIXUP)(EFI_DT_FIXUP_PROTOCOL *This, VOID *Fdt, UINTN *BufferSize,
					 UINT32 Flags);

struct _EFI_DT_FIXUP_PROTOCOL {
	UINT64 Revision;
	EFI_DT_FIXUP Fixup;
};

#endif
