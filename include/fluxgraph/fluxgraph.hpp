// fluxgraph: a dynamic graph store on the GPU (or OpenMP threads) with the algorithms that read it.
// The one header a program includes; link fluxgraph::fluxgraph (find_package(fluxgraph)).
#pragma once

#include "fluxgraph/error.hpp"
#include "fluxgraph/analyses.hpp"
#include "fluxgraph/distributed.hpp"
#include "fluxgraph/graph.hpp"
#include "fluxgraph/live.hpp"
#include "fluxgraph/stream.hpp"
#include "fluxgraph/version.hpp"
