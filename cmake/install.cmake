# `cmake --install`: libfluxgraph.a, the public headers (include/fluxgraph, plain C++), and a package
# that find_package(fluxgraph) loads: the target fluxgraph::fluxgraph with the build's compile
# definitions and link dependencies (fmt, zlib, threads; OpenMP in the CPU build, the CUDA runtime in
# the CUDA build). The `fluxgraph` command goes to bin/ (its rule is beside its target in
# CMakeLists.txt); the benchmarks' and tests' programs are not installed.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS fluxgraph_core EXPORT fluxgraphTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/fluxgraph DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/include/fluxgraph/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fluxgraph)
install(EXPORT fluxgraphTargets NAMESPACE fluxgraph:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fluxgraph)

set(FLUXGRAPH_USE_CUDA ${FG_USE_CUDA})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/fluxgraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fluxgraphConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fluxgraph)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fluxgraphConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fluxgraphConfig.cmake ${PROJECT_BINARY_DIR}/fluxgraphConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fluxgraph)
