/* Names of the protocols, configuration tables and variable GUIDs that dh, dmpstore and
 * dmem show, beyond the ones the shell core registers (../guid_names.c). Where Ember has
 * no header for a GUID its value is written here, from the specification. */
#include "sys.h"
#include <efi/global_variable.h>
#include <efi/gpt.h>
#include <efi/memory_attributes_table.h>
#include <efi/protocol/block_io2.h>
#include <efi/protocol/disk_io.h>
#include <efi/protocol/disk_io2.h>
#include <efi/protocol/driver_override.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/partition_info.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>
#include <efi/protocol/rng.h>
#include <efi/protocol/serial_io.h>
#include <efi/protocol/unicode_collation.h>

SH_GUID_NAME(pci_io, u"PciIo", EFI_PCI_IO_PROTOCOL_GUID);
SH_GUID_NAME(pci_rbio, u"PciRootBridgeIo", EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID);
SH_GUID_NAME(disk_io, u"DiskIo", EFI_DISK_IO_PROTOCOL_GUID);
SH_GUID_NAME(disk_io2, u"DiskIo2", EFI_DISK_IO2_PROTOCOL_GUID);
SH_GUID_NAME(block_io2, u"BlockIo2", EFI_BLOCK_IO2_PROTOCOL_GUID);
SH_GUID_NAME(partition_info, u"PartitionInfo", EFI_PARTITION_INFO_PROTOCOL_GUID);
SH_GUID_NAME(serial_io, u"SerialIo", EFI_SERIAL_IO_PROTOCOL_GUID);
SH_GUID_NAME(load_file, u"LoadFile", EFI_LOAD_FILE_PROTOCOL_GUID);
SH_GUID_NAME(load_file2, u"LoadFile2", EFI_LOAD_FILE2_PROTOCOL_GUID);
SH_GUID_NAME(collation, u"UnicodeCollation", EFI_UNICODE_COLLATION_PROTOCOL_GUID);
SH_GUID_NAME(rng, u"Rng", EFI_RNG_PROTOCOL_GUID);
SH_GUID_NAME(bus_override, u"BusSpecificDriverOverride",
	     EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL_GUID);
SH_GUID_NAME(platform_override, u"PlatformDriverOverride",
	     EFI_PLATFORM_DRIVER_OVERRIDE_PROTOCOL_GUID);
SH_GUID_NAME(family_override, u"DriverFamilyOverride", EFI_DRIVER_FAMILY_OVERRIDE_PROTOCOL_GUID);
SH_GUID_NAME(component_name, u"ComponentName",
	     {0x107a772c, 0xd5e1, 0x11d4, {0x9a, 0x46, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}});
SH_GUID_NAME(driver_config, u"DriverConfiguration",
	     {0x107a772b, 0xd5e1, 0x11d4, {0x9a, 0x46, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}});
SH_GUID_NAME(driver_config2, u"DriverConfiguration2",
	     {0xbfd7dc1d, 0x24f1, 0x40d9, {0x82, 0xe7, 0x2e, 0x09, 0xbb, 0x6b, 0x4e, 0xbe}});
SH_GUID_NAME(driver_diag, u"DriverDiagnostics",
	     {0x0784924f, 0xe296, 0x11d4, {0x9a, 0x49, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}});
SH_GUID_NAME(driver_diag2, u"DriverDiagnostics2",
	     {0x4d330321, 0x025f, 0x4aac, {0x90, 0xd8, 0x5e, 0xd9, 0x00, 0x17, 0x3b, 0x63}});
SH_GUID_NAME(driver_efi_version, u"DriverSupportedEfiVersion",
	     {0x5c198761, 0x16a8, 0x4e69, {0x97, 0x2c, 0x89, 0xd6, 0x79, 0x54, 0xf8, 0x1d}});
SH_GUID_NAME(driver_health, u"DriverHealth",
	     {0x2a534210, 0x9280, 0x41d8, {0xae, 0x79, 0xca, 0xda, 0x01, 0xa2, 0xb1, 0x27}});
SH_GUID_NAME(simple_pointer, u"SimplePointer",
	     {0x31878c87, 0x0b75, 0x11d5, {0x9a, 0x4f, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}});
SH_GUID_NAME(absolute_pointer, u"AbsolutePointer",
	     {0x8d59d32b, 0xc655, 0x4ae9, {0x9b, 0x15, 0xf2, 0x59, 0x04, 0x99, 0x2a, 0x43}});
SH_GUID_NAME(simple_network, u"SimpleNetwork",
	     {0xa19832b9, 0xac25, 0x11d3, {0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}});
SH_GUID_NAME(pxe, u"PxeBaseCode",
	     {0x03c4e603, 0xac28, 0x11d3, {0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}});
SH_GUID_NAME(edid_discovered, u"EdidDiscovered",
	     {0x1c0c34f6, 0xd380, 0x41fa, {0xa0, 0x49, 0x8a, 0xd0, 0x6c, 0x1a, 0x66, 0xaa}});
SH_GUID_NAME(edid_active, u"EdidActive",
	     {0xbd8c1056, 0x9f36, 0x44ec, {0x92, 0xa8, 0xa6, 0x33, 0x7f, 0x81, 0x79, 0x86}});
SH_GUID_NAME(edid_override, u"EdidOverride",
	     {0x48ecb431, 0xfb72, 0x45c0, {0xa9, 0x22, 0xf4, 0x58, 0xfe, 0x04, 0x0b, 0xd5}});
SH_GUID_NAME(ext_scsi, u"ExtScsiPassThru",
	     {0x143b7632, 0xb81b, 0x4cb7, {0xab, 0xd3, 0xb6, 0x25, 0xa5, 0xb9, 0xbf, 0xfe}});
SH_GUID_NAME(ata_pass_thru, u"AtaPassThru",
	     {0x1d3de7f0, 0x0807, 0x424f, {0xaa, 0x69, 0x11, 0xa5, 0x4e, 0x19, 0xa4, 0x6f}});
SH_GUID_NAME(nvme_pass_thru, u"NvmExpressPassThru",
	     {0x52c78312, 0x8edc, 0x4233, {0x98, 0xf2, 0x1a, 0x1a, 0xa5, 0xe3, 0x88, 0xa5}});
SH_GUID_NAME(ide_init, u"IdeControllerInit",
	     {0xa1e37052, 0x80d9, 0x4e65, {0xa3, 0x17, 0x3e, 0x9a, 0x55, 0xc4, 0x3e, 0xc9}});

/* The partition driver installs a partition's type GUID on its handle (UEFI 2.10, 13.3.2). */
SH_GUID_NAME(esp_type, u"EfiSystemPartition", EFI_PART_TYPE_EFI_SYSTEM_PART_GUID);

/* Configuration tables (UEFI 2.10, 4.6) */
SH_GUID_NAME(acpi10, u"ACPITable", ACPI_TABLE_GUID);
SH_GUID_NAME(acpi20, u"ACPI20Table", EFI_ACPI_20_TABLE_GUID);
SH_GUID_NAME(smbios, u"SMBIOSTable", SMBIOS_TABLE_GUID);
SH_GUID_NAME(smbios3, u"SMBIOS3Table", SMBIOS3_TABLE_GUID);
SH_GUID_NAME(mem_attr, u"MemoryAttributesTable", EFI_MEMORY_ATTRIBUTES_TABLE_GUID);
SH_GUID_NAME(rt_properties, u"RtPropertiesTable", EFI_RT_PROPERTIES_TABLE_GUID);

/* Variable namespaces */
SH_GUID_NAME(image_security, u"ImageSecurityDatabase", EFI_IMAGE_SECURITY_DATABASE_GUID);
SH_GUID_NAME(hw_error, u"HardwareErrorVariable", EFI_HARDWARE_ERROR_VARIABLE);
