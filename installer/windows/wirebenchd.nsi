; wirebenchd-setup.exe: wirebenchd for Windows (the responder alone, no Qt), its configuration and an uninstaller.
; Built by installer/windows/CMakeLists.txt in the Windows cross build (makensis, Debian's nsis):
;   makensis -DVERSION=0.1.0 -DEXE=wirebenchd.exe -DCONF=wirebenchd.conf -DOUTFILE=wirebenchd-setup.exe wirebenchd.nsi
; Install silently: wirebenchd-setup.exe /S [/D=C:\other\folder]. No service is registered (wirebenchd --service could
; not be tested under wine): docs/INSTALL.md, "wirebenchd on Windows", has the sc.exe create line.
; A 64-bit installer: wirebenchd.exe is one, and wine64 alone (without wine32) runs only 64-bit programs.
Target amd64-unicode
SetCompressor /SOLID lzma
Name "wirebenchd ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\Wirebench"
RequestExecutionLevel admin
ShowInstDetails show

!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\wirebenchd"

Page directory
Page instfiles
UninstPage uninstConfirm
UninstPage instfiles

Section "wirebenchd"
    SetRegView 64
    SetOutPath "$INSTDIR"
    File "/oname=wirebenchd.exe" "${EXE}"
    ; A configuration the administrator edited stays as it is on an update.
    SetOverwrite off
    File "/oname=wirebenchd.conf" "${CONF}"
    SetOverwrite on
    WriteUninstaller "$INSTDIR\uninstall.exe"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayName" "wirebenchd ${VERSION} (Wirebench responder)"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "Publisher" "Wirebench"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
    WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoModify" 1
    WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoRepair" 1
SectionEnd

Section "Uninstall"
    SetRegView 64
    Delete "$INSTDIR\wirebenchd.exe"
    Delete "$INSTDIR\uninstall.exe"
    ; The configuration and the key (%ProgramData%\Wirebench\wirebenchd.key) stay, as a package's do on Debian.
    RMDir "$INSTDIR"
    DeleteRegKey HKLM "${UNINSTALL_KEY}"
SectionEnd
