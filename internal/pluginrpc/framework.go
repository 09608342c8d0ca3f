package pluginrpc

import (
	"context"
	"errors"
	"fmt"

	pb "github.com/probe-dev/probe/internal/pb/probev1"
	"github.com/probe-dev/probe/sdk/framework"
)

type frameworkServer struct {
	pb.UnimplementedFrameworkServer
	impl framework.Framework
}

func (s *frameworkServer) Describe(ctx context.Context, _ *pb.FrameworkDescribeRequest) (*pb.FrameworkDescribeResponse, error) {
	info, err := func() (info *framework.Info, err error) {
		defer recoverPanic("Describe", &err)
		return s.impl.Describe(ctx)
	}()
	if err == nil && info == nil {
		err = errors.New("Describe returned no information")
	}
	if err != nil {
		return &pb.FrameworkDescribeResponse{Error: errorToPB(err)}, nil
	}
	return frameworkInfoToPB(info), nil
}

func (s *frameworkServer) Plan(ctx context.Context, req *pb.PlanRequest) (*pb.PlanResponse, error) {
	fail := func(err error) (*pb.PlanResponse, error) { return &pb.PlanResponse{Error: errorToPB(err)}, nil }
	freq, err := planRequestFromPB(req)
	if err != nil {
		return fail(fmt.Errorf("decode request: %w", err))
	}
	res, err := func() (res *framework.PlanResponse, err error) {
		defer recoverPanic("Plan", &err)
		return s.impl.Plan(ctx, freq)
	}()
	if err != nil {
		return fail(err)
	}
	if res == nil {
		return fail(errors.New("Plan returned no response"))
	}
	out := &pb.PlanResponse{Skip: res.Skip}
	if res.Plan != nil {
		if out.Plan, err = planToPB(res.Plan); err != nil {
			return fail(fmt.Errorf("encode plan: %w", err))
		}
	}
	return out, nil
}

type frameworkClient struct {
	rpc pb.FrameworkClient
}

func (c *frameworkClient) Describe(ctx context.Context) (*framework.Info, error) {
	resp, err := c.rpc.Describe(ctx, &pb.FrameworkDescribeRequest{}, callOptions...)
	if err != nil {
		return nil, rpcError("Describe", err)
	}
	if e := resp.GetError(); e != nil {
		return nil, errorFromPB(e)
	}
	info, err := frameworkInfoFromPB(resp)
	if err != nil {
		return nil, fmt.Errorf("plugin Describe: %w", err)
	}
	return info, nil
}

func (c *frameworkClient) Plan(ctx context.Context, req *framework.PlanRequest) (*framework.PlanResponse, error) {
	if req == nil {
		return nil, errors.New("plugin Plan: nil request")
	}
	resp, err := c.rpc.Plan(ctx, planRequestToPB(req), callOptions...)
	if err != nil {
		return nil, rpcError("Plan", err)
	}
	if e := resp.GetError(); e != nil {
		return nil, errorFromPB(e)
	}
	out := &framework.PlanResponse{Skip: resp.GetSkip()}
	if resp.GetPlan() != nil {
		if out.Plan, err = planFromPB(resp.GetPlan()); err != nil {
			return nil, fmt.Errorf("plugin Plan %s: decode plan: %w", req.API, err)
		}
	}
	return out, nil
}
