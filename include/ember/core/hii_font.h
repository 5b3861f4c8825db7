/* EFI_HII_FONT_PROTOCOL over the built-in font (core/hii/font.c). */
#ifndef EMBER_HII_FONT_H
#define EMBER_HII_FONT_H

#include <efi/types.h>

/* Publishes the font protocol on a handle of its own, once (an init step calls it). */
EFI_STATUS hii_font_publish(void);

#endif
