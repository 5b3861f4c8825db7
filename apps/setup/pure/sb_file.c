/* Key files and signature-list chains for the setup screen (sb_file.h). Every read is
 * bounded by the size given; nothing is assumed about alignment. */
#include "sb_file.h"
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define LIST_HEADER sizeof(EFI_SIGNATURE_LIST)

/* The list at data + at: its header copied out; false when it does not fit or its sizes
 * are not those of a list with at least one entry. */
static bool list_at(const UINT8 *data, size_t size, size_t at, EFI_SIGNATURE_LIST *l)
{
	size_t body;

	if (size - at < LIST_HEADER)
		return false;
	mem_copy(l, data + at, LIST_HEADER);
	if (l->SignatureListSize > size - at || l->SignatureListSize < LIST_HEADER ||
	    l->SignatureHeaderSize > l->SignatureListSize - LIST_HEADER ||
	    l->SignatureSize < sizeof(EFI_GUID))
		return false;
	body = l->SignatureListSize - LIST_HEADER - l->SignatureHeaderSize;
	return body && body % l->SignatureSize == 0;
}

static UINT32 list_entries(const EFI_SIGNATURE_LIST *l)
{
	return (l->SignatureListSize - (UINT32)LIST_HEADER - l->SignatureHeaderSize) /
	       l->SignatureSize;
}

bool sb_siglist_valid(const UINT8 *data, size_t size)
{
	EFI_SIGNATURE_LIST l;

	for (size_t at = 0; at < size; at += l.SignatureListSize)
		if (!list_at(data, size, at, &l))
			return false;
	return true;
}

UINT32 sb_siglist_count(const UINT8 *data, size_t size)
{
	EFI_SIGNATURE_LIST l;
	UINT32 count = 0;

	if (!sb_siglist_valid(data, size))
		return 0;
	for (size_t at = 0; at < size; at += l.SignatureListSize) {
		list_at(data, size, at, &l);
		count += list_entries(&l);
	}
	return count;
}

/* Finds entry index: the offset of its list and of the entry itself. */
static bool find_entry(const UINT8 *data, size_t size, UINT32 index, size_t *list, size_t *entry,
		       EFI_SIGNATURE_LIST *l)
{
	if (!sb_siglist_valid(data, size))
		return false;
	for (size_t at = 0; at < size; at += l->SignatureListSize) {
		list_at(data, size, at, l);
		if (index < list_entries(l)) {
			*list = at;
			*entry = at + LIST_HEADER + l->SignatureHeaderSize +
				 (size_t)index * l->SignatureSize;
			return true;
		}
		index -= list_entries(l);
	}
	return false;
}

bool sb_siglist_entry(const UINT8 *data, size_t size, UINT32 index, struct sb_entry *e)
{
	EFI_SIGNATURE_LIST l;
	size_t list, entry;

	if (!find_entry(data, size, index, &list, &entry, &l))
		return false;
	e->type = l.SignatureType;
	mem_copy(&e->owner, data + entry, sizeof(EFI_GUID));
	e->data = data + entry + sizeof(EFI_GUID);
	e->size = l.SignatureSize - sizeof(EFI_GUID);
	return true;
}

size_t sb_siglist_remove(UINT8 *data, size_t size, UINT32 index)
{
	EFI_SIGNATURE_LIST l;
	size_t list, entry, cut, from;

	if (!find_entry(data, size, index, &list, &entry, &l))
		return size;
	if (list_entries(&l) == 1) { /* the whole list goes */
		from = list;
		cut = l.SignatureListSize;
	} else {
		from = entry;
		cut = l.SignatureSize;
		l.SignatureListSize -= (UINT32)cut;
		mem_copy(data + list, &l, LIST_HEADER);
	}
	mem_copy(data + from, data + from + cut, size - from - cut);
	return size - cut;
}

size_t sb_esl_from_der(const UINT8 *cert, size_t cert_size, const EFI_GUID *owner, UINT8 *out,
		       size_t out_size)
{
	EFI_SIGNATURE_LIST l = {efi_cert_x509_guid, 0, 0, 0};
	size_t total = LIST_HEADER + sizeof(EFI_GUID) + cert_size;

	if (cert_size > 0xffff0000u || total > out_size)
		return 0;
	l.SignatureListSize = (UINT32)total;
	l.SignatureSize = (UINT32)(sizeof(EFI_GUID) + cert_size);
	mem_copy(out, &l, LIST_HEADER);
	mem_copy(out + LIST_HEADER, owner, sizeof(EFI_GUID));
	mem_copy(out + LIST_HEADER + sizeof(EFI_GUID), cert, cert_size);
	return total;
}

/* A DER length at data[*at]: short or long form of up to 4 bytes; false when it runs past
 * size. */
static bool der_length(const UINT8 *data, size_t size, size_t *at, size_t *length)
{
	UINT8 first, bytes;

	if (*at >= size)
		return false;
	first = data[(*at)++];
	if (first < 0x80) {
		*length = first;
		return true;
	}
	bytes = first & 0x7f;
	if (!bytes || bytes > 4 || size - *at < bytes)
		return false;
	*length = 0;
	while (bytes--)
		*length = (*length << 8) | data[(*at)++];
	return true;
}

bool sb_der_is_certificate(const UINT8 *data, size_t size)
{
	size_t at = 1, length, inner;

	if (size < 4 || data[0] != 0x30 || !der_length(data, size, &at, &length) ||
	    length != size - at || at >= size)
		return false;
	/* tbsCertificate: a SEQUENCE inside. */
	if (data[at++] != 0x30 || !der_length(data, size, &at, &inner))
		return false;
	return inner <= size - at;
}

size_t sb_auth_payload(const UINT8 *data, size_t size)
{
	EFI_VARIABLE_AUTHENTICATION_2 d;
	size_t end;

	if (size < sizeof(d))
		return 0;
	mem_copy(&d, data, sizeof(d));
	if (d.AuthInfo.Hdr.wCertificateType != WIN_CERT_TYPE_EFI_GUID ||
	    !guid_eq(&d.AuthInfo.CertType, &efi_cert_type_pkcs7_guid) ||
	    d.AuthInfo.Hdr.dwLength < sizeof(d.AuthInfo) ||
	    d.AuthInfo.Hdr.dwLength > size - sizeof(EFI_TIME))
		return 0;
	end = sizeof(EFI_TIME) + d.AuthInfo.Hdr.dwLength;
	return sb_siglist_valid(data + end, size - end) ? end : 0;
}

/* The value of a base64 digit, -1 for another character. */
static int base64_value(UINT8 c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Where text (within size bytes from at) starts, or size when it does not occur. */
static size_t find_text(const UINT8 *data, size_t size, size_t at, const char *text)
{
	size_t n = str8_len(text);

	for (; at < size && size - at >= n; at++)
		if (!mem_cmp(data + at, text, n))
			return at;
	return size;
}

/* Decodes base64 from data[at..end) into out; white space is skipped, '=' ends it. */
static size_t base64_decode(const UINT8 *data, size_t at, size_t end, UINT8 *out, size_t out_size)
{
	UINT32 bits = 0;
	int count = 0;
	size_t n = 0;

	for (; at < end && data[at] != '='; at++) {
		int v = base64_value(data[at]);
		if (v < 0) {
			if (data[at] == ' ' || data[at] == '\t' || data[at] == '\r' ||
			    data[at] == '\n')
				continue;
			return 0;
		}
		bits = bits << 6 | (UINT32)v;
		if (++count == 4) {
			if (out_size - n < 3)
				return 0;
			out[n++] = (UINT8)(bits >> 16);
			out[n++] = (UINT8)(bits >> 8);
			out[n++] = (UINT8)bits;
			bits = 0;
			count = 0;
		}
	}
	if (count == 1 || out_size - n < (size_t)(count ? count - 1 : 0))
		return 0;
	if (count == 2)
		out[n++] = (UINT8)(bits >> 4);
	if (count == 3) {
		out[n++] = (UINT8)(bits >> 10);
		out[n++] = (UINT8)(bits >> 2);
	}
	return n;
}

size_t sb_pem_to_der(const UINT8 *data, size_t size, UINT8 *out, size_t out_size)
{
	static const char begin[] = "-----BEGIN CERTIFICATE-----",
			  end[] = "-----END CERTIFICATE-----";
	size_t start = find_text(data, size, 0, begin), stop, n;

	if (start == size)
		return 0;
	start += sizeof(begin) - 1;
	stop = find_text(data, size, start, end);
	if (stop == size)
		return 0;
	n = base64_decode(data, start, stop, out, out_size);
	return n && sb_der_is_certificate(out, n) ? n : 0;
}

enum sb_file_kind sb_file_kind(const UINT8 *data, size_t size)
{
	if (sb_auth_payload(data, size))
		return SB_FILE_AUTH;
	if (sb_der_is_certificate(data, size))
		return SB_FILE_DER;
	if (size && sb_siglist_valid(data, size))
		return SB_FILE_ESL;
	if (find_text(data, size, 0, "-----BEGIN CERTIFICATE-----") < size)
		return SB_FILE_PEM;
	return SB_FILE_UNKNOWN;
}
