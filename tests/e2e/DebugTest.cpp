#include "E2E.h"
