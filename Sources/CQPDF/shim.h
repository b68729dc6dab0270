// qpdf's C API (Debian: libqpdf-dev), for reading and writing existing PDF files.
#include <qpdf/qpdf-c.h>
