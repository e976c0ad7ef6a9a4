module {
  func.func private @neuronfuse.softmax.impl_1(%arg0: tensor<?xf32>, %arg1: tensor<f32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %arg1) ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %8 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<?xf32>
    %3 = "stablehlo.subtract"(%arg2, %2) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %4 = "stablehlo.exponential"(%3) : (tensor<?xf32>) -> tensor<?xf32>
    %5 = "stablehlo.reduce"(%4, %0) ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %8 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<?xf32>
    %7 = "stablehlo.divide"(%4, %6) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    return %7 : tensor<?xf32>
  }
  func.func @softmax_region1(%arg0: tensor<?xf32>, %arg1: tensor<f32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "stablehlo.composite"(%arg0, %arg1, %arg2) {composite_attributes = {reduce_dims = array<i64: 0>}, decomposition = @neuronfuse.softmax.impl_1, name = "neuronfuse.softmax", version = 1 : i32} : (tensor<?xf32>, tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

