/* Device paths for the core (UEFI 2.10 chapter 10): the device path utilities and the
 * conversions to and from text (10.6), over the node walking of lib/devpath_node.h. Every function
 * returning a pointer allocates it with pool_alloc (EfiBootServicesData); the caller releases it
 * with pool_free/FreePool. NULL means invalid input or exhausted memory. */
#ifndef EMBER_DEVPATH_H
#define EMBER_DEVPATH_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>
#include <ember/lib/devpath_node.h>

/* ---- Utilities (EFI_DEVICE_PATH_UTILITIES_PROTOCOL semantics, 10.5) ---- */

/* A copy of path; NULL for NULL. */
EFI_DEVICE_PATH_PROTOCOL *dp_dup(const EFI_DEVICE_PATH_PROTOCOL *path);
/* a's nodes then b's; a NULL side is empty; both NULL give a lone End node. */
EFI_DEVICE_PATH_PROTOCOL *dp_append(const EFI_DEVICE_PATH_PROTOCOL *a,
				    const EFI_DEVICE_PATH_PROTOCOL *b);
/* path then one node; NULL node copies path, NULL path gives node + End. */
EFI_DEVICE_PATH_PROTOCOL *dp_append_node(const EFI_DEVICE_PATH_PROTOCOL *path,
					 const EFI_DEVICE_PATH_PROTOCOL *node);
/* path, an End Instance node, then instance; NULL path copies instance; NULL instance
 * gives NULL. */
EFI_DEVICE_PATH_PROTOCOL *dp_append_instance(const EFI_DEVICE_PATH_PROTOCOL *path,
					     const EFI_DEVICE_PATH_PROTOCOL *instance);
/* Copies the instance at *instance (terminated by End Entire), advances *instance to the
 * next one or NULL, and sets *size (optional) to the copy's size including its End node.
 * NULL (and *size 0) when instance or *instance is NULL. */
EFI_DEVICE_PATH_PROTOCOL *dp_next_instance(EFI_DEVICE_PATH_PROTOCOL **instance, UINTN *size);
/* A zeroed node of length bytes with its header set; NULL if length < 4. */
EFI_DEVICE_PATH_PROTOCOL *dp_create_node(UINT8 type, UINT8 subtype, UINT16 length);
/* One File Path node holding path, then End; NULL if it would exceed 64 KiB. */
EFI_DEVICE_PATH_PROTOCOL *dp_file_path(const CHAR16 *path);

/* ---- Text (EFI_DEVICE_PATH_TO_TEXT/FROM_TEXT semantics, 10.6) ----
 * Output uses the canonical forms of 10.6.1: PciRoot(0x0)/Pci(0x1F,0x2)/..., numbers in
 * upper-case 0x hex except where the spec uses decimal (HD partition, Vlan, Uart baud and data
 * bits, RAM disk instance, IP addresses), GUIDs in registry format, '/' between nodes and ','
 * between instances. A node whose binary content a named form cannot carry exactly (odd
 * lengths, reserved fields set, strings with separators) is written in the generic form
 * (HardwarePath/AcpiPath/Msg/MediaPath/BbsPath/Path with a hex dump), so binary -> text ->
 * binary is always identical when display_only is false.
 * display_only selects the spec's shorter display forms (Ata(LUN), IPv4(Remote), HD(n,T,Sig),
 * CDROM(Entry), BBS(Type,Id), PciRoot/PcieRoot and the short AcpiEx for expanded ACPI nodes).
 * allow_shortcuts enables the vendor-GUID shortcuts of messaging nodes (VenPcAnsi, VenVt100,
 * VenVt100Plus, VenUtf8, UartFlowCtrl, SAS, DebugPort); named forms chosen by an ACPI HID,
 * USB class or RAM-disk GUID (PciRoot, UsbHID, VirtualDisk ...) are always used, as OVMF does. */

/* Text for a whole path; "" for a lone End node; NULL for NULL or malformed nodes. */
CHAR16 *dp_to_text(const EFI_DEVICE_PATH_PROTOCOL *path, bool display_only, bool allow_shortcuts);
/* Text for one node. */
CHAR16 *dp_node_to_text(const EFI_DEVICE_PATH_PROTOCOL *node, bool display_only,
			bool allow_shortcuts);
/* Parses a text path ("" gives a lone End node). Node names match case-insensitively;
 * parameters may be positional or "Name=value"; text that is not Name(...) of a known node
 * becomes a File Path node. NULL on malformed text (bad numbers, unbalanced parentheses,
 * missing required parameters, oversized nodes). */
EFI_DEVICE_PATH_PROTOCOL *dp_from_text(const CHAR16 *text);
/* Parses the first node of text (up to the first '/' or ',' outside parentheses); the result
 * is a single node without an End node. */
EFI_DEVICE_PATH_PROTOCOL *dp_node_from_text(const CHAR16 *text);

/* The device path prefix an OpenFirmware path of QEMU's fw_cfg "bootorder" stands for
 * ("/pci@i0cf8/pci8086,2922@1f,2/drive@1/disk@0" gives PciRoot(0x0)/Pci(0x1F,0x2)/
 * Sata(0x1,0xFFFF,0x0)); text from line up to end, no terminator needed. NULL for devices
 * Ember does not boot from (network, option ROMs) and for malformed text. */
EFI_DEVICE_PATH_PROTOCOL *dp_from_ofw(const char *line, const char *end);

/* Installs EFI_DEVICE_PATH_UTILITIES_PROTOCOL, _TO_TEXT_ and _FROM_TEXT_ on one new handle. */
EFI_STATUS devpath_install_protocols(void);

#endif
