# Builds Wirebench and its NSIS installer on Windows.
# UNTRIED: written for Windows 10/11 with Visual Studio 2019+ (Developer PowerShell), Qt 6.4+ (MSVC build),
# NSIS 3 (makensis on PATH), CMake >= 3.25, Ninja, and libcurl/QCustomPlot from vcpkg. Never run on this project.
#
#   .\installer\windows\build-installer.ps1 -QtDir C:\Qt\6.5.3\msvc2019_64 -Vcpkg C:\vcpkg
#
# Result: build-win\wirebench-<version>-win64.exe
param(
    [Parameter(Mandatory = $true)][string]$QtDir,
    [Parameter(Mandatory = $true)][string]$Vcpkg,
    [string]$BuildDir = "build-win"
)
$ErrorActionPreference = "Stop"
$root = Resolve-Path "$PSScriptRoot\..\.."

foreach ($tool in "cmake", "ninja", "makensis", "cl") {
    if (-not (Get-Command $tool -ErrorAction SilentlyContinue)) {
        throw "$tool is not on PATH: open a Developer PowerShell for Visual Studio and install CMake, Ninja and NSIS"
    }
}
& "$Vcpkg\vcpkg.exe" install curl:x64-windows qcustomplot:x64-windows
if ($LASTEXITCODE -ne 0) { throw "vcpkg could not install curl and qcustomplot" }

cmake -S $root -B $BuildDir -G Ninja -DCMAKE_BUILD_TYPE=Release `
    "-DCMAKE_PREFIX_PATH=$QtDir;$Vcpkg\installed\x64-windows" `
    "-DCMAKE_TOOLCHAIN_FILE=$Vcpkg\scripts\buildsystems\vcpkg.cmake" `
    -DWIREBENCH_BUILD_TESTS=OFF
if ($LASTEXITCODE -ne 0) { throw "CMake configure failed (see above; libsmbclient has no Windows port yet, see docs/INSTALL.md)" }
cmake --build $BuildDir --parallel
if ($LASTEXITCODE -ne 0) { throw "the build failed" }
Push-Location $BuildDir
try {
    cpack -G NSIS
    if ($LASTEXITCODE -ne 0) { throw "cpack -G NSIS failed" }
} finally { Pop-Location }
Get-ChildItem "$BuildDir\wirebench-*.exe"
