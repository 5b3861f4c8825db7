/* GUIDs that give vendor and RAM-disk nodes a text form of their own (10.3.4.x, 10.3.5.9). */
#include "devpath_internal.h"

const EFI_GUID dp_guid_pc_ansi = EFI_PC_ANSI_GUID;
const EFI_GUID dp_guid_vt100 = EFI_VT_100_GUID;
const EFI_GUID dp_guid_vt100_plus = EFI_VT_100_PLUS_GUID;
const EFI_GUID dp_guid_vt_utf8 = EFI_VT_UTF8_GUID;
const EFI_GUID dp_guid_uart_flow = DEVICE_PATH_MESSAGING_UART_FLOW_CONTROL;
const EFI_GUID dp_guid_sas = EFI_SAS_DEVICE_PATH_GUID;
const EFI_GUID dp_guid_debugport = EFI_DEBUGPORT_PROTOCOL_GUID;
const EFI_GUID dp_guid_virtual_disk = EFI_VIRTUAL_DISK_GUID;
const EFI_GUID dp_guid_virtual_cd = EFI_VIRTUAL_CD_GUID;
const EFI_GUID dp_guid_persistent_virtual_disk = EFI_PERSISTENT_VIRTUAL_DISK_GUID;
const EFI_GUID dp_guid_persistent_virtual_cd = EFI_PERSISTENT_VIRTUAL_CD_GUID;
