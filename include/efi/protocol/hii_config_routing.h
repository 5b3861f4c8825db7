/* EFI_HII_CONFIG_ROUTING_PROTOCOL (UEFI 2.10, 35.4.2): moves configuration strings
 * (<ConfigRequest>, <ConfigResp>, 35.2.1) between the forms browser and the drivers' Config
 * Access protocols, and converts them to and from a driver's storage block. */
#ifndef EFI_PROTOCOL_HII_CONFIG_ROUTING_H
#define EFI_PROTOCOL_HII_CONFIG_ROUTING_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/hii_package_list.h>

#define EFI_HII_CONFIG_ROUTING_PROTOCOL_GUID                                                       \
	EFI_GUID_INIT(0x587e72d7, 0xcc50, 0x4f79, 0x82, 0x09, 0xca, 0x29, 0x1f, 0xc1, 0xa1, 0x0f)

typedef struct _EFI_HII_CONFIG_ROUTING_PROTOCOL EFI_HII_CONFIG_ROUTING_PROTOCOL;

struct _EFI_HII_CONFIG_ROUTING_PROTOCOL {
	EFI_STATUS(EFIAPI *ExtractConfig)
	(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This, const EFI_STRING Request,
	 EFI_STRING *Progress, EFI_STRING *Results);
	EFI_STATUS(EFIAPI *ExportConfig)
	(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This, EFI_STRING *Results);
	EFI_STATUS(EFIAPI *RouteConfig)
	(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This, const EFI_STRING Configuration,
	 EFI_STRING *Progress);
	EFI_STATUS(EFIAPI *BlockToConfig)
	(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This, const EFI_STRING ConfigRequest,
	 const UINT8 *Block, const UINTN BlockSize, EFI_STRING *Config, EFI_STRING *Progress);
	EFI_STATUS(EFIAPI *ConfigToBlock)
	(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This, const EFI_STRING ConfigResp, UINT8 *Block,
	 UINTN *BlockSize, EFI_STRING *Progress);
	EFI_STATUS(EFIAPI *GetAltConfig)
	(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This, const EFI_STRING ConfigResp,
	 const EFI_GUID *Guid, const EFI_STRING Name, const EFI_DEVICE_PATH_PROTOCOL *DevicePath,
	 const UINT16 *AltCfgId, EFI_STRING *AltCfgResp);
};

#endif
