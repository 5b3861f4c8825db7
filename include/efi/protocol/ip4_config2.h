/* EFI_IP4_CONFIG2_PROTOCOL (UEFI 2.10, 28.5): the IPv4 configuration of a network interface,
 * read and set by data type (the interface's addresses, the policy, a manual address, the
 * gateways and the name servers). */
#ifndef EFI_PROTOCOL_IP4_CONFIG2_H
#define EFI_PROTOCOL_IP4_CONFIG2_H

#include <efi/status.h>
#include <efi/types.h>

#define EFI_IP4_CONFIG2_PROTOCOL_GUID                                                              \
	EFI_GUID_INIT(0x5b446ed1, 0xe30b, 0x4faa, 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80)

typedef struct _EFI_IP4_CONFIG2_PROTOCOL EFI_IP4_CONFIG2_PROTOCOL;

typedef enum {
	Ip4Config2DataTypeInterfaceInfo,
	Ip4Config2DataTypePolicy,
	Ip4Config2DataTypeManualAddress,
	Ip4Config2DataTypeGateway,
	Ip4Config2DataTypeDnsServer,
	Ip4Config2DataTypeMaximum
} EFI_IP4_CONFIG2_DATA_TYPE;

typedef struct {
	EFI_IPv4_ADDRESS SubnetAddress;
	EFI_IPv4_ADDRESS SubnetMask;
	EFI_IPv4_ADDRESS GatewayAddress;
} EFI_IP4_ROUTE_TABLE;

#define EFI_IP4_CONFIG2_INTERFACE_INFO_NAME_SIZE 32

typedef struct {
	CHAR16 Name[EFI_IP4_CONFIG2_INTERFACE_INFO_NAME_SIZE];
	UINT8 IfType;
	UINT32 HwAddressSize;
	EFI_MAC_ADDRESS HwAddress;
	EFI_IPv4_ADDRESS StationAddress;
	EFI_IPv4_ADDRESS SubnetMask;
	UINT32 RouteTableSize;
	EFI_IP4_ROUTE_TABLE *RouteTable; /* OPTIONAL */
} EFI_IP4_CONFIG2_INTERFACE_INFO;

typedef enum {
	Ip4Config2PolicyStatic,
	Ip4Config2PolicyDhcp,
	Ip4Config2PolicyMax
} EFI_IP4_CONFIG2_POLICY;

typedef struct {
	EFI_IPv4_ADDRESS Address;
	EFI_IPv4_ADDRESS SubnetMask;
} EFI_IP4_CONFIG2_MANUAL_ADDRESS;

typedef EFI_STATUS(EFIAPI *EFI_IP4_CONFIG2_SET_DATA)(EFI_IP4_CONFIG2_PROTOCOL *This,
						     EFI_IP4_CONFIG2_DATA_TYPE DataType,
						     UINTN DataSize, VOID *Data);
typedef EFI_STATUS(EFIAPI *EFI_IP4_CONFIG2_GET_DATA)(EFI_IP4_CONFIG2_PROTOCOL *This,
						     EFI_IP4_CONFIG2_DATA_TYPE DataType,
						     UINTN *DataSize, VOID *Data);
typedef EFI_STATUS(EFIAPI *EFI_IP4_CONFIG2_REGISTER_NOTIFY)(EFI_IP4_CONFIG2_PROTOCOL *This,
							    EFI_IP4_CONFIG2_DATA_TYPE DataType,
							    EFI_EVENT Event);
typedef EFI_STATUS(EFIAPI *EFI_IP4_CONFIG2_UNREGISTER_NOTIFY)(EFI_IP4_CONFIG2_PROTOCOL *This,
							      EFI_IP4_CONFIG2_DATA_TYPE DataType,
							      EFI_EVENT Event);

struct _EFI_IP4_CONFIG2_PROTOCOL {
	EFI_IP4_CONFIG2_SET_DATA SetData;
	EFI_IP4_CONFIG2_GET_DATA GetData;
	EFI_IP4_CONFIG2_REGISTER_NOTIFY RegisterDataNotify;
	EFI_IP4_CONFIG2_UNREGISTER_NOTIFY UnregisterDataNotify;
};

#endif
