# The Debian package (CPack): `cmake --build <tree> --target package` writes cuzk_<version>_<arch>.deb
# with cuzk, cuzk-daemon, cuzk-bench (and cuzk-prover where built), linked to the project's static
# libraries and to the CUDA runtime statically (CUDA::cudart_static, src/gpu): on a GPU machine only
# the NVIDIA driver is needed. Also: the systemd unit cuzk-daemon.service, /etc/cuzk/cuzk-daemon.toml
# (a conffile made from config/cuzk-daemon.example.toml) and maintainer scripts that make the `cuzk`
# system user and /var/cache/cuzk (0700). The release preset has machine code for every supported
# card: package from it. tests/package/deb_package_test.sh builds, installs and removes it.
include(GNUInstallDirs)

if(TARGET cuzk_gpu)
  get_target_property(_cuzk_gpu_type cuzk_gpu TYPE)
  if(_cuzk_gpu_type STREQUAL "SHARED_LIBRARY")
    message(STATUS "cuzk package: not offered in a CUZK_GPU_SHARED build tree")
    return()
  endif()
endif()

set(_cuzk_programs)
foreach(program cuzk cuzk-daemon cuzk-bench cuzk-prover)
  if(TARGET ${program})
    list(APPEND _cuzk_programs ${program})
  endif()
endforeach()
install(TARGETS ${_cuzk_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# /etc/cuzk/cuzk-daemon.toml: the documented example with the service's paths (socket under
# /run/cuzk, which systemd makes; keys cached in /var/cache/cuzk). Everything else is the example's.
file(READ ${PROJECT_SOURCE_DIR}/config/cuzk-daemon.example.toml _cuzk_config)
foreach(pair "unix_socket = \"/tmp/cuzk-daemon.sock\"|unix_socket = \"/run/cuzk/cuzk-daemon.sock\""
             "cache_dir = \"/tmp/cuzk-cache\"|cache_dir = \"/var/cache/cuzk\"")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  string(FIND "${_cuzk_config}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "config/cuzk-daemon.example.toml has no line '${from}': update packaging/Packaging.cmake")
  endif()
  string(REPLACE "${from}" "${to}" _cuzk_config "${_cuzk_config}")
endforeach()
set(_cuzk_config_header "# /etc/cuzk/cuzk-daemon.toml, read by cuzk-daemon.service (systemctl restart cuzk-daemon after an
# edit; the package keeps your edits on upgrade). It is config/cuzk-daemon.example.toml with the
# service's unix_socket (/run/cuzk) and cache_dir (/var/cache/cuzk).
")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/packaging/cuzk-daemon.toml.new "${_cuzk_config_header}${_cuzk_config}")
configure_file(${CMAKE_CURRENT_BINARY_DIR}/packaging/cuzk-daemon.toml.new
               ${CMAKE_CURRENT_BINARY_DIR}/packaging/cuzk-daemon.toml COPYONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/packaging/cuzk-daemon.toml DESTINATION /etc/cuzk)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/cuzk-daemon.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/config/cuzk-daemon.example.toml
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs OPTIONAL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "cuzk maintainers <cuzk@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 proving engine and gRPC proving daemon (BLS12-381, BN254; CUDA)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The extended description (CPack puts the summary above it and indents its lines).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "cuzk proves Groth16 circuits from snarkjs/circom (.zkey, .wtns) and Filecoin's
circuits (WinningPoSt, WindowPoSt, PoRep C2, SnapDeals) on the CPU or, with the NVIDIA driver, on
the GPU. Programs: cuzk (setup/prove/verify), cuzk-daemon (the proving service,
cuzk-daemon.service), cuzk-bench (client and load generator), cuzk-prover (rapidsnark's
command line).")
# The shared libraries the programs load (gRPC, protobuf, TBB, ...) become dependencies via
# dpkg-shlibdeps; the CUDA runtime is linked statically, and the driver's libcuda is loaded at run
# time only where a GPU is used.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-driver")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/debian/conffiles ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
    ${CMAKE_CURRENT_LIST_DIR}/debian/prerm ${CMAKE_CURRENT_LIST_DIR}/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
