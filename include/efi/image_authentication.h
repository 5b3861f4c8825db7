/* Signature databases (UEFI 2.10 32.4.1): EFI_SIGNATURE_LIST, EFI_SIGNATURE_DATA and the
 * signature types; authenticated variables (8.2.6): WIN_CERTIFICATE (32.2.4) and the
 * EFI_VARIABLE_AUTHENTICATION_2 descriptor with its certificate GUID. */
#ifndef EFI_IMAGE_AUTHENTICATION_H
#define EFI_IMAGE_AUTHENTICATION_H

#include <efi/runtime_services.h>

#pragma pack(push, 1)
typedef struct {
	EFI_GUID SignatureOwner;
	UINT8 SignatureData[];
} EFI_SIGNATURE_DATA;

typedef struct {
	EFI_GUID SignatureType;
	UINT32 SignatureListSize;
	UINT32 SignatureHeaderSize;
	UINT32 SignatureSize;
	/* UINT8 SignatureHeader[SignatureHeaderSize]; then EFI_SIGNATURE_DATA entries. */
} EFI_SIGNATURE_LIST;
#pragma pack(pop)

_Static_assert(sizeof(EFI_SIGNATURE_LIST) == 28, "EFI_SIGNATURE_LIST");

#define EFI_CERT_SHA1_GUID                                                                         \
	EFI_GUID_INIT(0x826ca512, 0xcf10, 0x4ac9, 0xb1, 0x87, 0xbe, 0x01, 0x49, 0x66, 0x31, 0xbd)
#define EFI_CERT_SHA256_GUID                                                                       \
	EFI_GUID_INIT(0xc1c41626, 0x504c, 0x4092, 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28)
#define EFI_CERT_SHA384_GUID                                                                       \
	EFI_GUID_INIT(0xff3e5307, 0x9fd0, 0x48c9, 0x85, 0xf1, 0x8a, 0xd5, 0x6c, 0x70, 0x1e, 0x01)
#define EFI_CERT_SHA512_GUID                                                                       \
	EFI_GUID_INIT(0x093e0fae, 0xa6c4, 0x4f50, 0x9f, 0x1b, 0xd4, 0x1e, 0x2b, 0x89, 0xc1, 0x9a)
#define EFI_CERT_RSA2048_GUID                                                                      \
	EFI_GUID_INIT(0x3c5766e8, 0x269c, 0x4e34, 0xaa, 0x14, 0xed, 0x77, 0x6e, 0x85, 0xb3, 0xb6)
#define EFI_CERT_X509_GUID                                                                         \
	EFI_GUID_INIT(0xa5c059a1, 0x94e4, 0x4aa7, 0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72)
/* EFI_CERT_X509_SHA*: a certificate's tbsCertificate digest and an EFI_TIME of revocation. */
#define EFI_CERT_X509_SHA256_GUID                                                                  \
	EFI_GUID_INIT(0x3bd2a492, 0x96c0, 0x4079, 0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed)
#define EFI_CERT_X509_SHA384_GUID                                                                  \
	EFI_GUID_INIT(0x7076876e, 0x80c2, 0x4ee6, 0xaa, 0xd2, 0x28, 0xb3, 0x49, 0xa6, 0x86, 0x5b)
#define EFI_CERT_X509_SHA512_GUID                                                                  \
	EFI_GUID_INIT(0x446dbf63, 0x2502, 0x4cda, 0xbc, 0xfa, 0x24, 0x65, 0xd2, 0xb0, 0xfe, 0x9d)
/* WIN_CERTIFICATE_UEFI_GUID.CertType of EFI_VARIABLE_AUTHENTICATION_2: PKCS#7 SignedData. */
#define EFI_CERT_TYPE_PKCS7_GUID                                                                   \
	EFI_GUID_INIT(0x4aafd29d, 0x68df, 0x49ee, 0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7)

/* WIN_CERTIFICATE (32.2.4). */
typedef struct {
	UINT32 dwLength; /* of the whole certificate, this header included */
	UINT16 wRevision;
	UINT16 wCertificateType;
} WIN_CERTIFICATE;
_Static_assert(sizeof(WIN_CERTIFICATE) == 8, "WIN_CERTIFICATE layout");

#define WIN_CERT_REVISION_2_0 0x0200
#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002
#define WIN_CERT_TYPE_EFI_PKCS115 0x0EF0
#define WIN_CERT_TYPE_EFI_GUID 0x0EF1

/* WIN_CERTIFICATE_UEFI_GUID: then CertData (dwLength - 24 bytes). */
typedef struct {
	WIN_CERTIFICATE Hdr;
	EFI_GUID CertType;
} WIN_CERTIFICATE_UEFI_GUID;
_Static_assert(sizeof(WIN_CERTIFICATE_UEFI_GUID) == 24, "WIN_CERTIFICATE_UEFI_GUID layout");

/* EFI_VARIABLE_AUTHENTICATION_2 (8.2.6): TimeStamp, then AuthInfo (whose CertData is a
 * DER SignedData without its ContentInfo), then the variable's new data. */
typedef struct {
	EFI_TIME TimeStamp;
	WIN_CERTIFICATE_UEFI_GUID AuthInfo;
} EFI_VARIABLE_AUTHENTICATION_2;
_Static_assert(sizeof(EFI_VARIABLE_AUTHENTICATION_2) == 40, "EFI_VARIABLE_AUTHENTICATION_2");

#endif
