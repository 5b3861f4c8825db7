/* EFI_SIMPLE_NETWORK_PROTOCOL (UEFI 2.10, section 24.1): a packet-level interface to a
 * network adapter, with the Stopped/Started/Initialized state machine in its Mode. */
#ifndef EFI_PROTOCOL_SIMPLE_NETWORK_H
#define EFI_PROTOCOL_SIMPLE_NETWORK_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_SIMPLE_NETWORK_PROTOCOL_GUID                                                           \
	EFI_GUID_INIT(0xa19832b9, 0xac25, 0x11d3, 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)
#define EFI_SIMPLE_NETWORK_PROTOCOL_REVISION 0x00010000

#define MAX_MCAST_FILTER_CNT 16

/* Mode.IfType and the MAC() device path node's IfType: RFC 3232's ifType for Ethernet. */
#define IF_TYPE_ETHERNET 0x01

/* ReceiveFilterMask / ReceiveFilterSetting bits. */
#define EFI_SIMPLE_NETWORK_RECEIVE_UNICAST 0x01
#define EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST 0x02
#define EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST 0x04
#define EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS 0x08
#define EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS_MULTICAST 0x10

/* GetStatus InterruptStatus bits. */
#define EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT 0x01
#define EFI_SIMPLE_NETWORK_TRANSMIT_INTERRUPT 0x02
#define EFI_SIMPLE_NETWORK_COMMAND_INTERRUPT 0x04
#define EFI_SIMPLE_NETWORK_SOFTWARE_INTERRUPT 0x08

typedef enum {
	EfiSimpleNetworkStopped,
	EfiSimpleNetworkStarted,
	EfiSimpleNetworkInitialized,
	EfiSimpleNetworkMaxState
} EFI_SIMPLE_NETWORK_STATE;

typedef struct {
	UINT32 State; /* EFI_SIMPLE_NETWORK_STATE */
	UINT32 HwAddressSize;
	UINT32 MediaHeaderSize;
	UINT32 MaxPacketSize;
	UINT32 NvRamSize;
	UINT32 NvRamAccessSize;
	UINT32 ReceiveFilterMask;
	UINT32 ReceiveFilterSetting;
	UINT32 MaxMCastFilterCount;
	UINT32 MCastFilterCount;
	EFI_MAC_ADDRESS MCastFilter[MAX_MCAST_FILTER_CNT];
	EFI_MAC_ADDRESS CurrentAddress;
	EFI_MAC_ADDRESS BroadcastAddress;
	EFI_MAC_ADDRESS PermanentAddress;
	UINT8 IfType;
	BOOLEAN MacAddressChangeable;
	BOOLEAN MultipleTxSupported;
	BOOLEAN MediaPresentSupported;
	BOOLEAN MediaPresent;
} EFI_SIMPLE_NETWORK_MODE;
_Static_assert(sizeof(EFI_SIMPLE_NETWORK_MODE) == 40 + 19 * 32 + 8, "SNP mode layout");

typedef struct {
	UINT64 RxTotalFrames;
	UINT64 RxGoodFrames;
	UINT64 RxUndersizeFrames;
	UINT64 RxOversizeFrames;
	UINT64 RxDroppedFrames;
	UINT64 RxUnicastFrames;
	UINT64 RxBroadcastFrames;
	UINT64 RxMulticastFrames;
	UINT64 RxCrcErrorFrames;
	UINT64 RxTotalBytes;
	UINT64 TxTotalFrames;
	UINT64 TxGoodFrames;
	UINT64 TxUndersizeFrames;
	UINT64 TxOversizeFrames;
	UINT64 TxDroppedFrames;
	UINT64 TxUnicastFrames;
	UINT64 TxBroadcastFrames;
	UINT64 TxMulticastFrames;
	UINT64 TxCrcErrorFrames;
	UINT64 TxTotalBytes;
	UINT64 Collisions;
	UINT64 UnsupportedProtocol;
	UINT64 RxDuplicatedFrames;
	UINT64 RxDecryptErrorFrames;
	UINT64 TxErrorFrames;
	UINT64 TxRetryFrames;
} EFI_NETWORK_STATISTICS;

typedef struct _EFI_SIMPLE_NETWORK_PROTOCOL EFI_SIMPLE_NETWORK_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_START)(EFI_SIMPLE_NETWORK_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_STOP)(EFI_SIMPLE_NETWORK_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_INITIALIZE)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							  UINTN ExtraRxBufferSize,
							  UINTN ExtraTxBufferSize);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_RESET)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
						     BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_SHUTDOWN)(EFI_SIMPLE_NETWORK_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_RECEIVE_FILTERS)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							       UINT32 Enable, UINT32 Disable,
							       BOOLEAN ResetMCastFilter,
							       UINTN MCastFilterCnt,
							       EFI_MAC_ADDRESS *MCastFilter);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_STATION_ADDRESS)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							       BOOLEAN Reset, EFI_MAC_ADDRESS *New);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_STATISTICS)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							  BOOLEAN Reset, UINTN *StatisticsSize,
							  EFI_NETWORK_STATISTICS *StatisticsTable);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_MCAST_IP_TO_MAC)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							       BOOLEAN IPv6, EFI_IP_ADDRESS *IP,
							       EFI_MAC_ADDRESS *MAC);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_NVDATA)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
						      BOOLEAN ReadWrite, UINTN Offset,
						      UINTN BufferSize, VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_GET_STATUS)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							  UINT32 *InterruptStatus, VOID **TxBuf);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_TRANSMIT)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
							UINTN HeaderSize, UINTN BufferSize,
							VOID *Buffer, EFI_MAC_ADDRESS *SrcAddr,
							EFI_MAC_ADDRESS *DestAddr,
							UINT16 *Protocol);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_NETWORK_RECEIVE)(EFI_SIMPLE_NETWORK_PROTOCOL *This,
						       UINTN *HeaderSize, UINTN *BufferSize,
						       VOID *Buffer, EFI_MAC_ADDRESS *SrcAddr,
						       EFI_MAC_ADDRESS *DestAddr, UINT16 *Protocol);

struct _EFI_SIMPLE_NETWORK_PROTOCOL {
	UINT64 Revision;
	EFI_SIMPLE_NETWORK_START Start;
	EFI_SIMPLE_NETWORK_STOP Stop;
	EFI_SIMPLE_NETWORK_INITIALIZE Initialize;
	EFI_SIMPLE_NETWORK_RESET Reset;
	EFI_SIMPLE_NETWORK_SHUTDOWN Shutdown;
	EFI_SIMPLE_NETWORK_RECEIVE_FILTERS ReceiveFilters;
	EFI_SIMPLE_NETWORK_STATION_ADDRESS StationAddress;
	EFI_SIMPLE_NETWORK_STATISTICS Statistics;
	EFI_SIMPLE_NETWORK_MCAST_IP_TO_MAC MCastIpToMac;
	EFI_SIMPLE_NETWORK_NVDATA NvData;
	EFI_SIMPLE_NETWORK_GET_STATUS GetStatus;
	EFI_SIMPLE_NETWORK_TRANSMIT Transmit;
	EFI_SIMPLE_NETWORK_RECEIVE Receive;
	EFI_EVENT WaitForPacket;
	EFI_SIMPLE_NETWORK_MODE *Mode;
};
_Static_assert(sizeof(EFI_SIMPLE_NETWORK_PROTOCOL) == 8 * 16, "SNP layout");

#endif
