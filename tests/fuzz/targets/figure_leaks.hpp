#pragma once
// Targets that draw figures (cairo): fontconfig, which cairo asks for fonts
// once per process, keeps its configuration in caches LeakSanitizer cannot
// see from any root and reports as leaked on the first drawing. They are
// fontconfig's, bounded and made once; everything else is still checked.

extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }
