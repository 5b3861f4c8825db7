/* The table of GUIDs Ember names (include/ember/lib/guids.h). */
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/drivers/pci_driver.h>
#include <ember/drivers/text_input_state.h>
#include <ember/core/variable_owner.h>
#include <ember/core/settings.h>
#include <ember/net/net_tools.h>
#include <efi/protocol/ip4_config2.h>
#include <ember/core/varstore.h>
#include <efi/acpi.h>
#include <efi/protocol/dt_fixup.h>
#include <efi/boot_services.h>
#include <efi/global_variable.h>
#include <efi/image_authentication.h>
#include <efi/gpt.h>
#include <efi/debug_image_info.h>
#include <efi/memory_attributes_table.h>
#include <efi/protocol/memory_attribute.h>
#include <efi/protocol/mp_services.h>
#include <efi/protocol/block_io.h>
#include <efi/protocol/block_io2.h>
#include <efi/protocol/component_name2.h>
#include <efi/protocol/decompress.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/hii_string.h>
#include <efi/protocol/hii_font.h>
#include <efi/protocol/hii_config_access.h>
#include <efi/protocol/hii_config_routing.h>
#include <efi/protocol/form_browser2.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/device_path_from_text.h>
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/device_path_utilities.h>
#include <efi/protocol/disk_info.h>
#include <efi/protocol/disk_io.h>
#include <efi/protocol/disk_io2.h>
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/driver_override.h>
#include <efi/protocol/firmware_volume2.h>
#include <efi/protocol/ext_scsi_pass_thru.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/nvm_express_pass_thru.h>
#include <efi/protocol/partition_info.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>
#include <efi/protocol/ram_disk.h>
#include <efi/protocol/reset_notification.h>
#include <efi/protocol/rng.h>
#include <efi/protocol/scsi_io.h>
#include <efi/protocol/security.h>
#include <efi/protocol/serial_io.h>
#include <efi/protocol/shell.h>
#include <efi/protocol/shell_parameters.h>
#include <efi/protocol/tcg2.h>
#include <ember/drivers/tpm.h>
#include <efi/protocol/simple_file_system.h>
#include <efi/protocol/simple_text_input.h>
#include <efi/protocol/simple_text_input_ex.h>
#include <efi/protocol/simple_text_output.h>
#include <efi/protocol/unicode_collation.h>
#include <efi/protocol/usb2_hc.h>
#include <efi/protocol/usb_io.h>
#include <efi/runtime_services.h>
#include <efi/smbios.h>
#include <efi/system_table.h>

const EFI_GUID efi_acpi_20_table_guid = EFI_ACPI_20_TABLE_GUID;
const EFI_GUID efi_acpi_table_guid = ACPI_TABLE_GUID;
const EFI_GUID efi_dtb_table_guid = EFI_DTB_TABLE_GUID;
const EFI_GUID efi_dt_fixup_protocol_guid = EFI_DT_FIXUP_PROTOCOL_GUID;
const EFI_GUID efi_block_io2_protocol_guid = EFI_BLOCK_IO2_PROTOCOL_GUID;
const EFI_GUID efi_block_io_protocol_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
const EFI_GUID efi_bus_specific_driver_override_protocol_guid =
    EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL_GUID;
const EFI_GUID efi_component_name2_protocol_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;
const EFI_GUID efi_debug_image_info_table_guid = EFI_DEBUG_IMAGE_INFO_TABLE_GUID;
const EFI_GUID efi_decompress_protocol_guid = EFI_DECOMPRESS_PROTOCOL_GUID;
const EFI_GUID efi_firmware_volume2_protocol_guid = EFI_FIRMWARE_VOLUME2_PROTOCOL_GUID;
const EFI_GUID efi_firmware_file_system2_guid = EFI_FIRMWARE_FILE_SYSTEM2_GUID;
const EFI_GUID efi_firmware_file_system3_guid = EFI_FIRMWARE_FILE_SYSTEM3_GUID;
const EFI_GUID efi_hii_database_protocol_guid = EFI_HII_DATABASE_PROTOCOL_GUID;
const EFI_GUID efi_hii_package_list_protocol_guid = EFI_HII_PACKAGE_LIST_PROTOCOL_GUID;
const EFI_GUID efi_hii_set_keyboard_layout_event_guid = EFI_HII_SET_KEYBOARD_LAYOUT_EVENT_GUID;
const EFI_GUID efi_hii_string_protocol_guid = EFI_HII_STRING_PROTOCOL_GUID;
const EFI_GUID efi_hii_font_protocol_guid = EFI_HII_FONT_PROTOCOL_GUID;
const EFI_GUID efi_hii_config_routing_protocol_guid = EFI_HII_CONFIG_ROUTING_PROTOCOL_GUID;
const EFI_GUID efi_hii_config_access_protocol_guid = EFI_HII_CONFIG_ACCESS_PROTOCOL_GUID;
const EFI_GUID efi_form_browser2_protocol_guid = EFI_FORM_BROWSER2_PROTOCOL_GUID;
const EFI_GUID efi_debugport_protocol_guid = EFI_DEBUGPORT_PROTOCOL_GUID;
const EFI_GUID efi_device_path_from_text_protocol_guid = EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL_GUID;
const EFI_GUID efi_device_path_messaging_uart_flow_control_guid =
    DEVICE_PATH_MESSAGING_UART_FLOW_CONTROL;
const EFI_GUID efi_device_path_protocol_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
const EFI_GUID efi_device_path_to_text_protocol_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
const EFI_GUID efi_device_path_utilities_protocol_guid = EFI_DEVICE_PATH_UTILITIES_PROTOCOL_GUID;
const EFI_GUID efi_disk_info_ahci_interface_guid = EFI_DISK_INFO_AHCI_INTERFACE_GUID;
const EFI_GUID efi_disk_info_ide_interface_guid = EFI_DISK_INFO_IDE_INTERFACE_GUID;
const EFI_GUID efi_disk_info_protocol_guid = EFI_DISK_INFO_PROTOCOL_GUID;
const EFI_GUID efi_disk_io2_protocol_guid = EFI_DISK_IO2_PROTOCOL_GUID;
const EFI_GUID efi_disk_io_protocol_guid = EFI_DISK_IO_PROTOCOL_GUID;
const EFI_GUID efi_driver_binding_protocol_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
const EFI_GUID efi_driver_family_override_protocol_guid = EFI_DRIVER_FAMILY_OVERRIDE_PROTOCOL_GUID;
const EFI_GUID efi_event_group_after_ready_to_boot_guid = EFI_EVENT_GROUP_AFTER_READY_TO_BOOT;
const EFI_GUID efi_event_group_before_exit_boot_services_guid =
    EFI_EVENT_GROUP_BEFORE_EXIT_BOOT_SERVICES;
const EFI_GUID efi_event_group_exit_boot_services_guid = EFI_EVENT_GROUP_EXIT_BOOT_SERVICES;
const EFI_GUID efi_event_group_memory_map_change_guid = EFI_EVENT_GROUP_MEMORY_MAP_CHANGE;
const EFI_GUID efi_event_group_ready_to_boot_guid = EFI_EVENT_GROUP_READY_TO_BOOT;
const EFI_GUID efi_event_group_reset_system_guid = EFI_EVENT_GROUP_RESET_SYSTEM;
const EFI_GUID efi_event_group_virtual_address_change_guid = EFI_EVENT_GROUP_VIRTUAL_ADDRESS_CHANGE;
const EFI_GUID efi_file_info_guid = EFI_FILE_INFO_ID;
const EFI_GUID efi_file_system_info_guid = EFI_FILE_SYSTEM_INFO_ID;
const EFI_GUID efi_file_system_volume_label_guid = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;
const EFI_GUID efi_global_variable_guid = EFI_GLOBAL_VARIABLE;
const EFI_GUID efi_graphics_output_protocol_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
const EFI_GUID efi_hardware_error_variable_guid = EFI_HARDWARE_ERROR_VARIABLE;
const EFI_GUID efi_image_security_database_guid = EFI_IMAGE_SECURITY_DATABASE_GUID;
const EFI_GUID efi_load_file2_protocol_guid = EFI_LOAD_FILE2_PROTOCOL_GUID;
const EFI_GUID efi_load_file_protocol_guid = EFI_LOAD_FILE_PROTOCOL_GUID;
const EFI_GUID efi_loaded_image_device_path_protocol_guid =
    EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID;
const EFI_GUID efi_loaded_image_protocol_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
const EFI_GUID efi_memory_attribute_protocol_guid = EFI_MEMORY_ATTRIBUTE_PROTOCOL_GUID;
const EFI_GUID efi_memory_attributes_table_guid = EFI_MEMORY_ATTRIBUTES_TABLE_GUID;
const EFI_GUID efi_part_type_efi_system_part_guid = EFI_PART_TYPE_EFI_SYSTEM_PART_GUID;
const EFI_GUID efi_part_type_legacy_mbr_guid = EFI_PART_TYPE_LEGACY_MBR_GUID;
const EFI_GUID efi_part_type_unused_guid = EFI_PART_TYPE_UNUSED_GUID;
const EFI_GUID efi_partition_info_protocol_guid = EFI_PARTITION_INFO_PROTOCOL_GUID;
const EFI_GUID efi_pc_ansi_guid = EFI_PC_ANSI_GUID;
const EFI_GUID efi_mp_services_protocol_guid = EFI_MP_SERVICES_PROTOCOL_GUID;
const EFI_GUID efi_pci_io_protocol_guid = EFI_PCI_IO_PROTOCOL_GUID;
const EFI_GUID efi_pci_root_bridge_io_protocol_guid = EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID;
const EFI_GUID efi_persistent_virtual_cd_guid = EFI_PERSISTENT_VIRTUAL_CD_GUID;
const EFI_GUID efi_persistent_virtual_disk_guid = EFI_PERSISTENT_VIRTUAL_DISK_GUID;
const EFI_GUID efi_platform_driver_override_protocol_guid =
    EFI_PLATFORM_DRIVER_OVERRIDE_PROTOCOL_GUID;
const EFI_GUID efi_ram_disk_protocol_guid = EFI_RAM_DISK_PROTOCOL_GUID;
const EFI_GUID efi_rng_algorithm_raw_guid = EFI_RNG_ALGORITHM_RAW;
const EFI_GUID efi_rng_protocol_guid = EFI_RNG_PROTOCOL_GUID;
const EFI_GUID efi_reset_notification_protocol_guid = EFI_RESET_NOTIFICATION_PROTOCOL_GUID;
const EFI_GUID efi_rt_properties_table_guid = EFI_RT_PROPERTIES_TABLE_GUID;
const EFI_GUID efi_sas_device_path_guid = EFI_SAS_DEVICE_PATH_GUID;
const EFI_GUID efi_security2_arch_protocol_guid = EFI_SECURITY2_ARCH_PROTOCOL_GUID;
const EFI_GUID efi_security_arch_protocol_guid = EFI_SECURITY_ARCH_PROTOCOL_GUID;
const EFI_GUID efi_serial_io_protocol_guid = EFI_SERIAL_IO_PROTOCOL_GUID;
const EFI_GUID efi_serial_terminal_device_type_guid = EFI_SERIAL_TERMINAL_DEVICE_TYPE_GUID;
const EFI_GUID efi_shell_alias_guid = EFI_SHELL_ALIAS_GUID;
const EFI_GUID efi_shell_parameters_protocol_guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;
const EFI_GUID efi_shell_protocol_guid = EFI_SHELL_PROTOCOL_GUID;
const EFI_GUID efi_shell_variable_guid = EFI_SHELL_VARIABLE_GUID;
const EFI_GUID efi_simple_file_system_protocol_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
const EFI_GUID efi_simple_text_input_ex_protocol_guid = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;
const EFI_GUID efi_simple_text_input_protocol_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
const EFI_GUID efi_simple_text_output_protocol_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
const EFI_GUID efi_smbios3_table_guid = SMBIOS3_TABLE_GUID;
const EFI_GUID efi_smbios_table_guid = SMBIOS_TABLE_GUID;
const EFI_GUID efi_tcg2_final_events_table_guid = EFI_TCG2_FINAL_EVENTS_TABLE_GUID;
const EFI_GUID efi_tcg2_protocol_guid = EFI_TCG2_PROTOCOL_GUID;
const EFI_GUID efi_unicode_collation_protocol2_guid = EFI_UNICODE_COLLATION_PROTOCOL2_GUID;
const EFI_GUID efi_unicode_collation_protocol_guid = EFI_UNICODE_COLLATION_PROTOCOL_GUID;
const EFI_GUID efi_usb2_hc_protocol_guid = EFI_USB2_HC_PROTOCOL_GUID;
const EFI_GUID efi_usb_io_protocol_guid = EFI_USB_IO_PROTOCOL_GUID;
const EFI_GUID efi_virtual_cd_guid = EFI_VIRTUAL_CD_GUID;
const EFI_GUID efi_virtual_disk_guid = EFI_VIRTUAL_DISK_GUID;
const EFI_GUID efi_vt_100_guid = EFI_VT_100_GUID;
const EFI_GUID efi_vt_100_plus_guid = EFI_VT_100_PLUS_GUID;
const EFI_GUID efi_vt_utf8_guid = EFI_VT_UTF8_GUID;

const EFI_GUID efi_cert_sha1_guid = EFI_CERT_SHA1_GUID;
const EFI_GUID efi_cert_sha256_guid = EFI_CERT_SHA256_GUID;
const EFI_GUID efi_cert_sha384_guid = EFI_CERT_SHA384_GUID;
const EFI_GUID efi_cert_sha512_guid = EFI_CERT_SHA512_GUID;
const EFI_GUID efi_cert_rsa2048_guid = EFI_CERT_RSA2048_GUID;
const EFI_GUID efi_cert_x509_guid = EFI_CERT_X509_GUID;
const EFI_GUID efi_cert_x509_sha256_guid = EFI_CERT_X509_SHA256_GUID;
const EFI_GUID efi_cert_x509_sha384_guid = EFI_CERT_X509_SHA384_GUID;
const EFI_GUID efi_cert_x509_sha512_guid = EFI_CERT_X509_SHA512_GUID;
const EFI_GUID efi_cert_type_pkcs7_guid = EFI_CERT_TYPE_PKCS7_GUID;

const EFI_GUID efi_component_name_protocol_guid =
    EFI_GUID_INIT(0x107a772c, 0xd5e1, 0x11d4, 0x9a, 0x46, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d);
const EFI_GUID efi_driver_configuration_protocol_guid =
    EFI_GUID_INIT(0x107a772b, 0xd5e1, 0x11d4, 0x9a, 0x46, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d);
const EFI_GUID efi_driver_configuration2_protocol_guid =
    EFI_GUID_INIT(0xbfd7dc1d, 0x24f1, 0x40d9, 0x82, 0xe7, 0x2e, 0x09, 0xbb, 0x6b, 0x4e, 0xbe);
const EFI_GUID efi_driver_diagnostics_protocol_guid =
    EFI_GUID_INIT(0x0784924f, 0xe296, 0x11d4, 0x9a, 0x49, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d);
const EFI_GUID efi_driver_diagnostics2_protocol_guid =
    EFI_GUID_INIT(0x4d330321, 0x025f, 0x4aac, 0x90, 0xd8, 0x5e, 0xd9, 0x00, 0x17, 0x3b, 0x63);
const EFI_GUID efi_driver_supported_efi_version_protocol_guid =
    EFI_GUID_INIT(0x5c198761, 0x16a8, 0x4e69, 0x97, 0x2c, 0x89, 0xd6, 0x79, 0x54, 0xf8, 0x1d);
const EFI_GUID efi_driver_health_protocol_guid =
    EFI_GUID_INIT(0x2a534210, 0x9280, 0x41d8, 0xae, 0x79, 0xca, 0xda, 0x01, 0xa2, 0xb1, 0x27);
const EFI_GUID efi_simple_pointer_protocol_guid =
    EFI_GUID_INIT(0x31878c87, 0x0b75, 0x11d5, 0x9a, 0x4f, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d);
const EFI_GUID efi_absolute_pointer_protocol_guid =
    EFI_GUID_INIT(0x8d59d32b, 0xc655, 0x4ae9, 0x9b, 0x15, 0xf2, 0x59, 0x04, 0x99, 0x2a, 0x43);
const EFI_GUID efi_simple_network_protocol_guid =
    EFI_GUID_INIT(0xa19832b9, 0xac25, 0x11d3, 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d);
const EFI_GUID efi_pxe_base_code_protocol_guid =
    EFI_GUID_INIT(0x03c4e603, 0xac28, 0x11d3, 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d);
const EFI_GUID efi_ip4_config2_protocol_guid = EFI_IP4_CONFIG2_PROTOCOL_GUID;
const EFI_GUID ember_net_tools_protocol_guid = EMBER_NET_TOOLS_PROTOCOL_GUID;
const EFI_GUID efi_edid_discovered_protocol_guid =
    EFI_GUID_INIT(0x1c0c34f6, 0xd380, 0x41fa, 0xa0, 0x49, 0x8a, 0xd0, 0x6c, 0x1a, 0x66, 0xaa);
const EFI_GUID efi_edid_active_protocol_guid =
    EFI_GUID_INIT(0xbd8c1056, 0x9f36, 0x44ec, 0x92, 0xa8, 0xa6, 0x33, 0x7f, 0x81, 0x79, 0x86);
const EFI_GUID efi_edid_override_protocol_guid =
    EFI_GUID_INIT(0x48ecb431, 0xfb72, 0x45c0, 0xa9, 0x22, 0xf4, 0x58, 0xfe, 0x04, 0x0b, 0xd5);
const EFI_GUID efi_ext_scsi_pass_thru_protocol_guid = EFI_EXT_SCSI_PASS_THRU_PROTOCOL_GUID;
const EFI_GUID efi_scsi_io_protocol_guid = EFI_SCSI_IO_PROTOCOL_GUID;
const EFI_GUID efi_disk_info_scsi_interface_guid = EFI_DISK_INFO_SCSI_INTERFACE_GUID;
const EFI_GUID efi_ata_pass_thru_protocol_guid =
    EFI_GUID_INIT(0x1d3de7f0, 0x0807, 0x424f, 0xaa, 0x69, 0x11, 0xa5, 0x4e, 0x19, 0xa4, 0x6f);
const EFI_GUID efi_nvm_express_pass_thru_protocol_guid = EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL_GUID;
const EFI_GUID efi_disk_info_nvme_interface_guid = EFI_DISK_INFO_NVME_INTERFACE_GUID;
const EFI_GUID efi_ide_controller_init_protocol_guid =
    EFI_GUID_INIT(0xa1e37052, 0x80d9, 0x4e65, 0xa3, 0x17, 0x3e, 0x9a, 0x55, 0xc4, 0x3e, 0xc9);

const EFI_GUID ember_text_input_state_protocol_guid = EMBER_TEXT_INPUT_STATE_PROTOCOL_GUID;
const EFI_GUID ember_pci_driver_data_guid = EMBER_PCI_DRIVER_DATA_GUID;
const EFI_GUID ember_usb_bus_data_guid =
    EFI_GUID_INIT(0x5d4c3ab1, 0x2f6e, 0x4c1b, 0x9e, 0x07, 0x3a, 0x51, 0xc8, 0x2d, 0x6f, 0x90);
const EFI_GUID ember_secure_boot_defaults_guid = EMBER_SECURE_BOOT_DEFAULTS_GUID;
const EFI_GUID ember_tcg2_pcr_banks_guid = EMBER_TCG2_PCR_BANKS_GUID;
const EFI_GUID ember_variable_owner_protocol_guid = EMBER_VARIABLE_OWNER_PROTOCOL_GUID;
const EFI_GUID ember_settings_guid = EMBER_SETTINGS_GUID;
const EFI_GUID efi_variable_arch_protocol_guid =
    EFI_GUID_INIT(0x1e5668e2, 0x8481, 0x11d4, 0xbc, 0xf1, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81);
const EFI_GUID efi_variable_write_arch_protocol_guid =
    EFI_GUID_INIT(0x6441f818, 0x6362, 0x4e44, 0xb5, 0x70, 0x7d, 0xba, 0x31, 0xdd, 0x24, 0x53);

static const struct guid_name table[] = {
    {&ember_text_input_state_protocol_guid, "EmberTextInputState"},
    {&ember_pci_driver_data_guid, "EmberPciDriverData"},
    {&ember_usb_bus_data_guid, "EmberUsbBusData"},
    {&ember_secure_boot_defaults_guid, "EmberSecureBootDefaults"},
    {&ember_tcg2_pcr_banks_guid, "EmberTcg2PcrBanks"},
    {&ember_variable_owner_protocol_guid, "EmberVariableOwner"},
    {&ember_settings_guid, "EmberSettings"},
    {&efi_variable_arch_protocol_guid, "VariableArch"},
    {&efi_variable_write_arch_protocol_guid, "VariableWriteArch"},
    {&efi_acpi_20_table_guid, "ACPI20Table"},
    {&efi_acpi_table_guid, "ACPITable"},
    {&efi_dtb_table_guid, "DtbTable"},
    {&efi_dt_fixup_protocol_guid, "DtFixup"},
    {&efi_block_io2_protocol_guid, "BlockIo2"},
    {&efi_block_io_protocol_guid, "BlockIo"},
    {&efi_bus_specific_driver_override_protocol_guid, "BusSpecificDriverOverride"},
    {&efi_cert_sha1_guid, "CertSha1"},
    {&efi_cert_sha256_guid, "CertSha256"},
    {&efi_cert_sha384_guid, "CertSha384"},
    {&efi_cert_sha512_guid, "CertSha512"},
    {&efi_cert_rsa2048_guid, "CertRsa2048"},
    {&efi_cert_x509_guid, "CertX509"},
    {&efi_cert_x509_sha256_guid, "CertX509Sha256"},
    {&efi_cert_x509_sha384_guid, "CertX509Sha384"},
    {&efi_cert_x509_sha512_guid, "CertX509Sha512"},
    {&efi_cert_type_pkcs7_guid, "CertTypePkcs7"},
    {&efi_component_name2_protocol_guid, "ComponentName2"},
    {&efi_debug_image_info_table_guid, "DebugImageInfoTable"},
    {&efi_debugport_protocol_guid, "DebugPort"},
    {&efi_decompress_protocol_guid, "Decompress"},
    {&efi_firmware_volume2_protocol_guid, "FirmwareVolume2"},
    {&efi_firmware_file_system2_guid, "FirmwareFileSystem2"},
    {&efi_firmware_file_system3_guid, "FirmwareFileSystem3"},
    {&efi_hii_database_protocol_guid, "HiiDatabase"},
    {&efi_hii_package_list_protocol_guid, "HiiPackageList"},
    {&efi_hii_set_keyboard_layout_event_guid, "HiiSetKbdLayoutEvent"},
    {&efi_hii_string_protocol_guid, "HiiString"},
    {&efi_hii_font_protocol_guid, "HiiFont"},
    {&efi_hii_config_routing_protocol_guid, "HiiConfigRouting"},
    {&efi_hii_config_access_protocol_guid, "HiiConfigAccess"},
    {&efi_form_browser2_protocol_guid, "FormBrowser2"},
    {&efi_device_path_from_text_protocol_guid, "DevicePathFromText"},
    {&efi_device_path_messaging_uart_flow_control_guid, "UartFlowControl"},
    {&efi_device_path_protocol_guid, "DevicePath"},
    {&efi_device_path_to_text_protocol_guid, "DevicePathToText"},
    {&efi_device_path_utilities_protocol_guid, "DevicePathUtilities"},
    {&efi_disk_info_protocol_guid, "DiskInfo"},
    {&efi_disk_io2_protocol_guid, "DiskIo2"},
    {&efi_disk_io_protocol_guid, "DiskIo"},
    {&efi_driver_binding_protocol_guid, "DriverBinding"},
    {&efi_driver_family_override_protocol_guid, "DriverFamilyOverride"},
    {&efi_event_group_after_ready_to_boot_guid, "AfterReadyToBootGroup"},
    {&efi_event_group_before_exit_boot_services_guid, "BeforeExitBootServicesGroup"},
    {&efi_event_group_exit_boot_services_guid, "ExitBootServicesGroup"},
    {&efi_event_group_memory_map_change_guid, "MemoryMapChangeGroup"},
    {&efi_event_group_ready_to_boot_guid, "ReadyToBootGroup"},
    {&efi_event_group_reset_system_guid, "ResetSystemGroup"},
    {&efi_event_group_virtual_address_change_guid, "VirtualAddressChangeGroup"},
    {&efi_file_info_guid, "FileInfo"},
    {&efi_file_system_info_guid, "FileSystemInfo"},
    {&efi_file_system_volume_label_guid, "FileSystemVolumeLabel"},
    {&efi_global_variable_guid, "GlobalVariable"},
    {&efi_graphics_output_protocol_guid, "GraphicsOutput"},
    {&efi_hardware_error_variable_guid, "HardwareErrorVariable"},
    {&efi_image_security_database_guid, "ImageSecurityDatabase"},
    {&efi_load_file2_protocol_guid, "LoadFile2"},
    {&efi_load_file_protocol_guid, "LoadFile"},
    {&efi_loaded_image_device_path_protocol_guid, "LoadedImageDevicePath"},
    {&efi_loaded_image_protocol_guid, "LoadedImage"},
    {&efi_memory_attribute_protocol_guid, "MemoryAttribute"},
    {&efi_memory_attributes_table_guid, "MemoryAttributesTable"},
    {&efi_part_type_efi_system_part_guid, "EfiSystemPartition"},
    {&efi_part_type_legacy_mbr_guid, "LegacyMbrPartition"},
    {&efi_part_type_unused_guid, "UnusedPartition"},
    {&efi_partition_info_protocol_guid, "PartitionInfo"},
    {&efi_pc_ansi_guid, "PcAnsi"},
    {&efi_pci_io_protocol_guid, "PciIo"},
    {&efi_pci_root_bridge_io_protocol_guid, "PciRootBridgeIo"},
    {&efi_mp_services_protocol_guid, "MpServices"},
    {&efi_persistent_virtual_cd_guid, "PersistentVirtualCd"},
    {&efi_persistent_virtual_disk_guid, "PersistentVirtualDisk"},
    {&efi_platform_driver_override_protocol_guid, "PlatformDriverOverride"},
    {&efi_ram_disk_protocol_guid, "RamDisk"},
    {&efi_rng_algorithm_raw_guid, "RngAlgorithmRaw"},
    {&efi_rng_protocol_guid, "Rng"},
    {&efi_reset_notification_protocol_guid, "ResetNotification"},
    {&efi_rt_properties_table_guid, "RtPropertiesTable"},
    {&efi_sas_device_path_guid, "SasDevicePath"},
    {&efi_security2_arch_protocol_guid, "Security2Arch"},
    {&efi_security_arch_protocol_guid, "SecurityArch"},
    {&efi_serial_io_protocol_guid, "SerialIo"},
    {&efi_serial_terminal_device_type_guid, "SerialTerminalDeviceType"},
    {&efi_shell_alias_guid, "ShellAlias"},
    {&efi_shell_parameters_protocol_guid, "ShellParameters"},
    {&efi_shell_protocol_guid, "Shell"},
    {&efi_shell_variable_guid, "ShellVariable"},
    {&efi_simple_file_system_protocol_guid, "SimpleFileSystem"},
    {&efi_simple_text_input_ex_protocol_guid, "SimpleTextInEx"},
    {&efi_simple_text_input_protocol_guid, "SimpleTextIn"},
    {&efi_simple_text_output_protocol_guid, "SimpleTextOut"},
    {&efi_smbios3_table_guid, "SMBIOS3Table"},
    {&efi_smbios_table_guid, "SMBIOSTable"},
    {&efi_tcg2_final_events_table_guid, "Tcg2FinalEventsTable"},
    {&efi_tcg2_protocol_guid, "Tcg2"},
    {&efi_unicode_collation_protocol2_guid, "UnicodeCollation2"},
    {&efi_unicode_collation_protocol_guid, "UnicodeCollation"},
    {&efi_usb2_hc_protocol_guid, "Usb2HostController"},
    {&efi_usb_io_protocol_guid, "UsbIo"},
    {&efi_virtual_cd_guid, "VirtualCd"},
    {&efi_virtual_disk_guid, "VirtualDisk"},
    {&efi_vt_100_guid, "Vt100"},
    {&efi_vt_100_plus_guid, "Vt100Plus"},
    {&efi_vt_utf8_guid, "VtUtf8"},
    {&efi_component_name_protocol_guid, "ComponentName"},
    {&efi_driver_configuration_protocol_guid, "DriverConfiguration"},
    {&efi_driver_configuration2_protocol_guid, "DriverConfiguration2"},
    {&efi_driver_diagnostics_protocol_guid, "DriverDiagnostics"},
    {&efi_driver_diagnostics2_protocol_guid, "DriverDiagnostics2"},
    {&efi_driver_supported_efi_version_protocol_guid, "DriverSupportedEfiVersion"},
    {&efi_driver_health_protocol_guid, "DriverHealth"},
    {&efi_simple_pointer_protocol_guid, "SimplePointer"},
    {&efi_absolute_pointer_protocol_guid, "AbsolutePointer"},
    {&efi_simple_network_protocol_guid, "SimpleNetwork"},
    {&efi_pxe_base_code_protocol_guid, "PxeBaseCode"},
    {&efi_ip4_config2_protocol_guid, "Ip4Config2"},
    {&ember_net_tools_protocol_guid, "EmberNetTools"},
    {&efi_edid_discovered_protocol_guid, "EdidDiscovered"},
    {&efi_edid_active_protocol_guid, "EdidActive"},
    {&efi_edid_override_protocol_guid, "EdidOverride"},
    {&efi_ext_scsi_pass_thru_protocol_guid, "ExtScsiPassThru"},
    {&efi_scsi_io_protocol_guid, "ScsiIo"},
    {&efi_disk_info_scsi_interface_guid, "DiskInfoScsiInterface"},
    {&efi_ata_pass_thru_protocol_guid, "AtaPassThru"},
    {&efi_nvm_express_pass_thru_protocol_guid, "NvmExpressPassThru"},
    {&efi_disk_info_nvme_interface_guid, "DiskInfoNvmeInterface"},
    {&efi_ide_controller_init_protocol_guid, "IdeControllerInit"},
};

const struct guid_name *guid_names(size_t *count)
{
	*count = ARRAY_SIZE(table);
	return table;
}

const char *guid_name(const EFI_GUID *guid)
{
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (guid_eq(table[i].guid, guid))
			return table[i].name;
	return NULL;
}

/* ASCII letters only: the names are ASCII. */
static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool same_name(const char *a, const char *b)
{
	for (; *a && ascii_lower(*a) == ascii_lower(*b); a++, b++)
		;
	return *a == *b;
}

const EFI_GUID *guid_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (same_name(table[i].name, name))
			return table[i].guid;
	return NULL;
}
