#include <cstdint>
typedef unsigned char u8;
enum Color { RED, GREEN=5, BLUE };
union U { int i; float f; };
struct Node { Node *next; int vals[2][3]; U u; Color c; bool flag; short s; long long ll; u8 b; char ch; uint16_t w; double dd; };
__constant__ int cst[8];
__device__ int counter;
template<typename T> __device__ T sq(T v) { return v*v; }
__global__ void k2(Node *n, double *o, int m) {
  extern __shared__ char dyn[];
  Node loc = n[threadIdx.x];
  int acc = 0;
  for (int j = 0; j < m; j++) { acc += loc.vals[j&1][j%3] + cst[j&7]; }
  dyn[threadIdx.x] = (char)acc;
  atomicAdd(&counter, 1);
  o[threadIdx.x] = sq<double>(loc.dd) + sq<int>(acc) + loc.u.f + (loc.c == GREEN) + dyn[threadIdx.x ^ 1];
}
__global__ void k3() { }
